// The text of a submission's attachments: plain text, Markdown, PDF and DOCX (docs/rules/submissions.md#similarity).
import type { ReadyFile } from "../files/attachments";

/** Larger files are skipped: a check must not hold a server's memory for a scanned book. */
export const MAX_EXTRACT_BYTES = 20 * 1024 * 1024;

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

/** The text of one stored file; throws when a PDF or DOCX cannot be parsed (the check then FAILS). */
export async function extractFileText(stored: Blob, reader: Reader): Promise<string> {
  const bytes = Buffer.from(await stored.arrayBuffer());
  if (reader === "text") return new TextDecoder().decode(bytes);
  // the parsers load on first use: a server start does not pay for them
  if (reader === "pdf") {
    const { extractText, getDocumentProxy } = await import("unpdf");
    const pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
    return (await extractText(pdf, { mergePages: true })).text;
  }
  const mammoth = (await import("mammoth")).default;
  return (await mammoth.extractRawText({ buffer: bytes })).value;
}
