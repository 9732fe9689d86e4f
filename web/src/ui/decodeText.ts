// A text file as a school sends it: Excel saves CSV as UTF-8 (with or without a BOM), "Unicode text"
// (UTF-16) or, in Korean Windows, CP949. See docs/rules/console.md#csv-encodings.

/** The encoding of a file's bytes: its BOM, else UTF-16 by its zero bytes, else UTF-8 when it decodes cleanly, else CP949. */
export function detectEncoding(bytes: Uint8Array): "utf-8" | "utf-16le" | "utf-16be" | "euc-kr" {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return "utf-8";
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le";
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be";
  // ASCII text in UTF-16 without a BOM: every other byte is zero.
  const sample = bytes.subarray(0, 512);
  let evenZeros = 0;
  let oddZeros = 0;
  for (let i = 0; i < sample.length; i++) if (sample[i] === 0) i % 2 ? oddZeros++ : evenZeros++;
  if (oddZeros > sample.length / 8) return "utf-16le";
  if (evenZeros > sample.length / 8) return "utf-16be";
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return "utf-8";
  } catch {
    // WHATWG's euc-kr is Windows' CP949 (UHC): every Hangul syllable, not only KS X 1001's 2,350.
    return "euc-kr";
  }
}

/** The file's text, whichever of those encodings it is in (a BOM is dropped). */
export async function readText(file: Blob): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  return new TextDecoder(detectEncoding(bytes)).decode(bytes);
}
