// The text of a submission's attachments: plain text, Markdown, PDF and DOCX (docs/rules/submissions.md#similarity),
// within the caps of docs/rules/trust.md#bombs.
import { Unzip, UnzipInflate, Unzlib } from "fflate";
import type { ReadyFile } from "../files/attachments";

/** Larger files are skipped: a check must not hold a server's memory for a scanned book. */
export const MAX_EXTRACT_BYTES = 20 * 1024 * 1024;
/** Extracted text kept per file; the rest is cut off. */
export const MAX_TEXT_BYTES = 2 * 1024 * 1024;
/** What a DOCX may unpack to (all its parts together) before it is read. */
export const MAX_INFLATED_BYTES = 50 * 1024 * 1024;
/** What a PDF's streams may unpack to together before it is read (the DOCX bound). */
export const MAX_PDF_INFLATED_BYTES = MAX_INFLATED_BYTES;
/** Pages of a PDF read at most (one at a time); later pages are left out. */
export const MAX_PDF_PAGES = 1000;
/** Compressed bytes fed to the inflater at a time: at most about 1000x this is held at once (deflate's ratio bound). */
const STEP = 4 * 1024;

/** A file refused by the caps: the check FAILS, the server stays within its memory. */
export class ExtractLimitError extends Error {}

/**
 * Whether a zip unpacks to more than `limit` bytes, found by inflating every entry in 4 KiB steps
 * and counting (nothing kept): the sizes an archive declares are not believed.
 */
export function inflatesBeyond(zip: Uint8Array, limit: number): boolean {
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

/**
 * Filters whose output a PDF scan cannot measure (LZW and RunLength expand; ASCII85 and ASCIIHex
 * may hide a FlateDecode behind them), and encryption (the streams are ciphertext until pdf.js
 * decrypts them): such a PDF is not read.
 */
export const UNMEASURED: ReadonlySet<string> = new Set([
  "LZWDecode",
  "LZW",
  "RunLengthDecode",
  "RL",
  "ASCII85Decode",
  "A85",
  "ASCIIHexDecode",
  "AHx",
  "Encrypt",
]);
/** A PDF name as a token: a delimiter or white space before it, its characters, a delimiter after (or the end). */
const NAME = /(?<=[\s/[\]<>(){}%]|^)\/([^\s/[\]<>(){}%]+)(?=[\s/[\]<>(){}%]|$)/g;

/** The PDF names of a piece of text, `#xx` escapes decoded (pdf.js reads `/Fl#61teDecode` as `/FlateDecode`). */
function namesIn(text: string): string[] {
  return [...text.matchAll(NAME)].map((m) =>
    (m[1] as string).replace(/#([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16))),
  );
}

/**
 * What an UNMEASURED name needs somewhere: the letters of its shortest form (`LZWDecode` holds
 * `LZW`), or a `#` escape, which can spell any of them. A stretch without any is not split into
 * names, so a stream of ordinary operators (`/F1 12 Tf` a million times) makes no strings or match
 * objects — they were the scan's garbage, 50–76 MiB of RSS for a 50 MB stream.
 */
const NEEDLES = ["#", ...[...UNMEASURED].filter((name) => ![...UNMEASURED].some((form) => form !== name && name.includes(form)))];
const mayNameUnmeasured = (bytes: Buffer) => NEEDLES.some((n) => bytes.includes(n, 0, "latin1"));

/** Throws ExtractLimitError when the text names an UNMEASURED filter or encryption. */
function refuseUnmeasured(text: string) {
  if (!NEEDLES.some((n) => text.includes(n))) return;
  const name = namesIn(text).find((n) => UNMEASURED.has(n));
  if (name) throw new ExtractLimitError(`the PDF uses ${name}, which the check does not read`);
}

/** Searches a stretch of the file's own text (dictionaries between streams) in 1 MiB windows. */
function refuseUnmeasuredIn(buf: Buffer, from: number, to: number) {
  for (let at = from; at < to; at += 1024 * 1024) refuseUnmeasured(buf.toString("latin1", at, Math.min(to, at + 1024 * 1024 + 64)));
}

/**
 * Whether a PDF's streams unpack to more than `limit` bytes together, found as inflatesBeyond does
 * for a DOCX: every `stream … endstream` whose data is a zlib stream (what FlateDecode reads) is
 * inflated in 4 KiB steps and counted, nothing kept; the declared /Length is not believed. The
 * dictionaries (between the streams, and inside inflated streams other than images: object
 * streams hold dictionaries) are searched for a name of UNMEASURED, and such a PDF throws
 * ExtractLimitError. docs/rules/trust.md#bombs
 */
export function pdfInflatesBeyond(pdf: Uint8Array, limit: number): boolean {
  const buf = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  let total = 0;
  let scanned = 0;
  for (let at = buf.indexOf("stream", 0, "latin1"); at !== -1; at = buf.indexOf("stream", at + 6, "latin1")) {
    if (at >= 3 && buf.toString("latin1", at - 3, at) === "end") continue;
    refuseUnmeasuredIn(buf, scanned, at);
    const image = namesIn(buf.toString("latin1", Math.max(scanned, at - 4096), at)).includes("Image");
    let start = at + 6;
    if (buf[start] === 0x0d) start++;
    if (buf[start] === 0x0a) start++;
    const endAt = buf.indexOf("endstream", start, "latin1");
    const end = endAt === -1 ? buf.length : endAt;
    scanned = end;
    at = Math.max(at, end - 6);
    // FlateDecode data starts with a zlib header (CM 8, CMF*256+FLG divisible by 31), as pdf.js requires.
    const cmf = buf[start] ?? 0;
    if ((cmf & 0x0f) !== 8 || ((cmf << 8) | (buf[start + 1] ?? 0)) % 31 !== 0) continue;
    let over = false;
    let tail = "";
    const inflater = new Unzlib((chunk) => {
      total += chunk.length;
      over = total > limit;
      if (over || image) return;
      const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      refuseUnmeasured(tail + bytes.toString("latin1", 0, 64)); // a name cut in two by the chunk's edge
      if (mayNameUnmeasured(bytes)) refuseUnmeasured(bytes.toString("latin1"));
      tail = bytes.toString("latin1", Math.max(0, bytes.length - 64));
    });
    try {
      for (let p = start; p < end && !over; p += STEP) inflater.push(buf.subarray(p, Math.min(end, p + STEP)), p + STEP >= end);
    } catch (e) {
      if (e instanceof ExtractLimitError) throw e;
      // A broken stream: pdf.js stops at the same place; what came out is counted.
    }
    if (over) return true;
  }
  refuseUnmeasuredIn(buf, scanned, buf.length);
  return false;
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
  if (reader === "pdf") return capText(await pdfText(bytes));
  if (inflatesBeyond(bytes, MAX_INFLATED_BYTES)) throw new ExtractLimitError("the document unpacks to more than 50 MB");
  const mammoth = (await import("mammoth")).default;
  return capText((await mammoth.extractRawText({ buffer: bytes })).value);
}

/**
 * A PDF's text: refused when its streams unpack to more than 50 MB (pdfInflatesBeyond), then read
 * a page at a time (at most MAX_PDF_PAGES), stopping once 2 MB of text is in; lines and pages are
 * joined as unpdf's `extractText` with `mergePages` does (docs/rules/trust.md#bombs).
 */
async function pdfText(bytes: Buffer): Promise<string> {
  if (pdfInflatesBeyond(bytes, MAX_PDF_INFLATED_BYTES)) throw new ExtractLimitError("the PDF unpacks to more than 50 MB");
  const { getDocumentProxy } = await import("unpdf");
  const pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
  try {
    const pages: string[] = [];
    let kept = 0;
    for (let n = 1; n <= Math.min(pdf.numPages, MAX_PDF_PAGES) && kept <= MAX_TEXT_BYTES; n++) {
      const page = await pdf.getPage(n);
      const content = await page.getTextContent();
      const text = content.items.map((item) => ("str" in item ? item.str + (item.hasEOL ? "\n" : "") : "")).join("");
      page.cleanup();
      pages.push(text);
      kept += text.length;
    }
    return pages
      .join("\n")
      .replace(/[^\S\n]+/g, " ")
      .replace(/ ?\n ?/g, "\n")
      .replace(/\n{3,}/g, "\n\n");
  } finally {
    await pdf.loadingTask.destroy();
  }
}
