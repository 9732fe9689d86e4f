// The text of a submission's attachments: plain text, Markdown, PDF and DOCX (docs/rules/submissions.md#similarity),
// within the caps of docs/rules/trust.md#bombs.
import type { ReadyFile } from "../files/attachments";

/** Larger files are skipped: a check must not hold a server's memory for a scanned book. */
export const MAX_EXTRACT_BYTES = 20 * 1024 * 1024;
/** Extracted text kept per file; the rest is cut off. */
export const MAX_TEXT_BYTES = 2 * 1024 * 1024;
/** What a DOCX may unpack to (all its parts together) before it is read. */
export const MAX_INFLATED_BYTES = 50 * 1024 * 1024;
/** Compressed bytes fed to the inflater at a time: at most about 1000x this is held at once (deflate's ratio bound). */
const STEP = 4 * 1024;

/** A file refused by the caps: the check FAILS, the server stays within its memory. */
export class ExtractLimitError extends Error {}

/**
 * Whether a zip unpacks to more than `limit` bytes, found by inflating every entry in 4 KiB steps
 * and counting (nothing kept): the sizes an archive declares are not believed.
 */
export async function inflatesBeyond(zip: Uint8Array, limit: number): Promise<boolean> {
  // loaded on first use, as the parsers below: a server start does not pay for it (docs/rules/performance.md#start)
  const { Unzip, UnzipInflate } = await import("fflate");
  let total = 0;
  let over = false;
  const unzip = new Unzip((file) => {
    file.ondata = (err, chunk) => {
      if (err) throw err;
      total += chunk.length;
      if (total > limit && !over) {
        over = true;
        file.terminate();
      }
    };
    file.start();
  });
  unzip.register(UnzipInflate);
  for (let at = 0; at < zip.length && !over; at += STEP) unzip.push(zip.subarray(at, at + STEP), at + STEP >= zip.length);
  return over;
}

/** The first `max` UTF-8 bytes of a text (a character cut in two is dropped). */
function capText(text: string, max = MAX_TEXT_BYTES): string {
  if (text.length * 3 <= max) return text;
  const bytes = Buffer.from(text);
  if (bytes.length <= max) return text;
  const cut = new TextDecoder().decode(bytes.subarray(0, max));
  return cut.endsWith("\uFFFD") ? cut.slice(0, -1) : cut;
}

type Reader = "text" | "pdf" | "docx";

const DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

/** Which reader a file needs, by its content type, else its extension (browsers send octet-stream for .md); null = not read. */
export function readerOf(file: Pick<ReadyFile, "fileName" | "contentType">): Reader | null {
  const type = file.contentType.split(";")[0]?.trim().toLowerCase() ?? "";
  const ext = file.fileName.toLowerCase().split(".").pop() ?? "";
  if (type === "text/plain" || type === "text/markdown" || ext === "txt" || ext === "md" || ext === "markdown") return "text";
  if (type === "application/pdf" || ext === "pdf") return "pdf";
  if (type === DOCX || ext === "docx") return "docx";
  return null;
}

/**
 * The text of one stored file, at most 2 MB of it; throws when a PDF or DOCX cannot be parsed or a
 * DOCX unpacks to more than 50 MB (ExtractLimitError): the check then FAILS.
 */
export async function extractFileText(stored: Blob, reader: Reader): Promise<string> {
  // Plain text: only the bytes that can be kept are read.
  if (reader === "text") return capText(new TextDecoder().decode(await stored.slice(0, MAX_TEXT_BYTES).arrayBuffer()));
  const bytes = Buffer.from(await stored.arrayBuffer());
  // the parsers load on first use: a server start does not pay for them
  if (reader === "pdf") {
    const { extractText, getDocumentProxy } = await import("unpdf");
    const pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
    return capText((await extractText(pdf, { mergePages: true })).text);
  }
  if (await inflatesBeyond(bytes, MAX_INFLATED_BYTES)) throw new ExtractLimitError("the document unpacks to more than 50 MB");
  const mammoth = (await import("mammoth")).default;
  return capText((await mammoth.extractRawText({ buffer: bytes })).value);
}
