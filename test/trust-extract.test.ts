// Bombs in the similarity check's text extraction (docs/rules/trust.md#bombs): a DOCX that unpacks
// to 100 MiB is refused in bounded memory; extracted text stops at 2 MB.
import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Zip, ZipDeflate, Zlib, zlibSync } from "fflate";
import {
  ExtractLimitError,
  extractFileText,
  inflatesBeyond,
  MAX_TEXT_BYTES,
  pdfInflatesBeyond,
  UNMEASURED,
} from "../src/modules/similarity/extract";
import { useContentSpace } from "./helpers/fixture";
import { untilSimilaritySettled, useServer } from "./helpers/server";

const MiB = 1024 * 1024;

/** A DOCX whose document.xml unpacks to `mib` MiB, built in 1 MiB steps (never held whole). */
function docxBomb(mib: number): Uint8Array {
  const parts: Uint8Array[] = [];
  const zip = new Zip((err, chunk) => {
    if (err) throw err;
    parts.push(chunk);
  });
  const types = new ZipDeflate("[Content_Types].xml", { level: 9 });
  zip.add(types);
  types.push(
    new TextEncoder().encode('<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>'),
    true,
  );
  const doc = new ZipDeflate("word/document.xml", { level: 9 });
  zip.add(doc);
  const run = new TextEncoder().encode(
    "<w:r><w:t>aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa</w:t></w:r>".repeat(Math.ceil(MiB / 56)).slice(0, MiB),
  );
  for (let i = 0; i < mib; i++) doc.push(run, i === mib - 1);
  zip.end();
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Concatenates byte chunks. */
function join8(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * A one-page PDF whose page content is a FlateDecode stream that unpacks to `mib` MiB of text
 * operators (built in 1 MiB steps, never held whole); `filter` names the stream's filter as written.
 */
function pdfBomb(mib: number, filter = "/FlateDecode"): Uint8Array {
  const enc = new TextEncoder();
  const deflated: Uint8Array[] = [];
  const z = new Zlib({ level: 9 }, (chunk) => void deflated.push(chunk));
  const line = enc.encode("BT /F1 12 Tf 72 700 Td (lorem ipsum dolor sit amet) Tj ET\n".repeat(Math.ceil(MiB / 56)).slice(0, MiB));
  for (let i = 0; i < mib; i++) z.push(line, i === mib - 1);
  const data = join8(deflated);
  const parts: Uint8Array[] = [];
  const offsets: number[] = [];
  let size = 0;
  const add = (b: Uint8Array | string) => {
    const bytes = typeof b === "string" ? enc.encode(b) : b;
    parts.push(bytes);
    size += bytes.length;
  };
  add("%PDF-1.4\n");
  const obj = (n: number, body: string) => {
    offsets[n] = size;
    add(`${n} 0 obj\n${body}\nendobj\n`);
  };
  obj(1, "<< /Type /Catalog /Pages 2 0 R >>");
  obj(2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>");
  obj(3, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>");
  offsets[4] = size;
  add(`4 0 obj\n<< /Length ${data.length} /Filter ${filter} >>\nstream\n`);
  add(data);
  add("\nendstream\nendobj\n");
  obj(5, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>");
  const xref = size;
  add(
    `xref\n0 6\n0000000000 65535 f \n${offsets
      .slice(1)
      .map((o) => `${String(o).padStart(10, "0")} 00000 n \n`)
      .join("")}`,
  );
  add(`trailer\n<< /Size 6 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return join8(parts);
}

/** RSS growth of extracting `file` in a process of its own, and what the extraction ended with. */
function extractInChild(bytes: Uint8Array, name: string, reader: "docx" | "pdf") {
  // In the suite's process RSS also moves with every other test's heap, which says nothing about the extraction.
  const dir = mkdtempSync(join(tmpdir(), "extract-bomb-"));
  writeFileSync(join(dir, name), bytes);
  const child = Bun.spawnSync([
    process.execPath,
    "-e",
    `const { extractFileText } = await import(${JSON.stringify(join(import.meta.dir, "../src/modules/similarity/extract.ts"))});
     const bytes = await Bun.file(${JSON.stringify(join(dir, name))}).arrayBuffer();
     Bun.gc(true);
     const before = process.memoryUsage.rss();
     const refused = await extractFileText(new Blob([bytes]), ${JSON.stringify(reader)}).then(() => "read", (e) => e.constructor.name);
     console.log(JSON.stringify({ refused, grown: process.memoryUsage.rss() - before }));`,
  ]);
  rmSync(dir, { recursive: true, force: true });
  return JSON.parse(child.stdout.toString().trim().split("\n").pop() ?? "{}") as { refused: string; grown: number };
}

describe("DOCX bomb", () => {
  const bomb = docxBomb(100);

  test("a ~100 KB DOCX that unpacks to 100 MiB is refused while RSS grows by less than 64 MiB", async () => {
    expect(bomb.length).toBeLessThan(1024 * 1024);
    await expect(extractFileText(new Blob([bomb as Uint8Array<ArrayBuffer>]), "docx")).rejects.toBeInstanceOf(ExtractLimitError);
    const result = extractInChild(bomb, "bomb.docx", "docx");
    expect(result.refused).toBe("ExtractLimitError");
    expect(result.grown).toBeLessThan(64 * MiB);
  });

  test("the count does not believe declared sizes and stops just past the limit; a real DOCX is still read", async () => {
    const small = docxBomb(2);
    expect(inflatesBeyond(small, 2 * MiB)).toBe(true);
    expect(inflatesBeyond(small, 2 * MiB + 4096)).toBe(false);
    const essay = readFileSync(join(import.meta.dir, "fixtures/essay.docx"));
    expect(inflatesBeyond(essay, 50 * MiB)).toBe(false);
    expect((await extractFileText(new Blob([essay as Uint8Array<ArrayBuffer>]), "docx")).length).toBeGreaterThan(100);
  });

  test("extracted text stops at 2 MB (UTF-8 bytes, no character cut in two)", async () => {
    const text = "가나다라".repeat(400_000); // 4.8 MB of UTF-8
    const out = await extractFileText(new Blob([text]), "text");
    expect(Buffer.byteLength(out)).toBeLessThanOrEqual(MAX_TEXT_BYTES);
    expect(Buffer.byteLength(out)).toBeGreaterThan(MAX_TEXT_BYTES - 4);
    expect(out.includes("\uFFFD")).toBe(false);
  });
});

describe("PDF bomb", () => {
  const bomb = pdfBomb(100);

  test("a PDF whose page stream unpacks to 100 MiB is refused while RSS grows by less than 64 MiB", async () => {
    expect(bomb.length).toBeLessThan(1024 * 1024);
    await expect(extractFileText(new Blob([bomb as Uint8Array<ArrayBuffer>]), "pdf")).rejects.toBeInstanceOf(ExtractLimitError);
    const result = extractInChild(bomb, "bomb.pdf", "pdf");
    expect(result.refused).toBe("ExtractLimitError");
    expect(result.grown).toBeLessThan(64 * MiB);
  }, 120_000);

  test("the count does not believe /Length, reads escaped names, and refuses filters it cannot measure; a real PDF is still read", async () => {
    const small = pdfBomb(2);
    expect(pdfInflatesBeyond(small, 2 * MiB - 1)).toBe(true);
    expect(pdfInflatesBeyond(small, 2 * MiB)).toBe(false);
    // An escaped name is the same filter to pdf.js: still counted.
    expect(pdfInflatesBeyond(pdfBomb(2, "/Fl#61teDecode"), 2 * MiB - 1)).toBe(true);
    for (const filter of ["[/A85 /FlateDecode]", "/RunLengthDecode", "/LZW#44ecode", "[/ASCIIHexDecode /Fl]"]) {
      expect(() => pdfInflatesBeyond(pdfBomb(1, filter), 50 * MiB)).toThrow(ExtractLimitError);
    }
    const essay = readFileSync(join(import.meta.dir, "fixtures/essay.pdf"));
    expect(pdfInflatesBeyond(essay, 50 * MiB)).toBe(false);
    expect((await extractFileText(new Blob([essay as Uint8Array<ArrayBuffer>]), "pdf")).length).toBeGreaterThan(100);
  }, 120_000);

  test("every unmeasured name is found inside an object stream, written plainly or with an escape", () => {
    const objectStream = (dict: string) => {
      const inflated = zlibSync(new TextEncoder().encode(`${"1 0 2 40 ".repeat(20)}<< /Type /XObject /Filter ${dict} >>`));
      return join8([
        new TextEncoder().encode("%PDF-1.5\n1 0 obj\n<< /Type /ObjStm >>\nstream\n"),
        inflated,
        new TextEncoder().encode("\nendstream\nendobj\n"),
      ]);
    };
    expect(pdfInflatesBeyond(objectStream("/FlateDecode"), 50 * MiB)).toBe(false);
    for (const name of UNMEASURED) {
      const escaped = `${name.slice(0, -1)}#${name.charCodeAt(name.length - 1).toString(16)}`;
      for (const written of [name, escaped]) {
        expect(() => pdfInflatesBeyond(objectStream(`/${written}`), 50 * MiB), written).toThrow(ExtractLimitError);
      }
    }
  });

  test("a PDF under the bound whose text passes 2 MB is read, its text cut at 2 MB", async () => {
    const big = pdfBomb(5);
    const text = await extractFileText(new Blob([big as Uint8Array<ArrayBuffer>]), "pdf");
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(MAX_TEXT_BYTES);
    expect(text.startsWith("lorem ipsum")).toBe(true);
  }, 120_000);
});

describe("a DOCX bomb submitted over HTTP", () => {
  const api = useServer();
  const fx = useContentSpace(api, { spaceName: "Bombs", participants: ["Mallory"] });

  test("the submission is accepted, its check FAILS, and the server keeps answering", async () => {
    const [mallory] = fx.participants;
    const id = await fx.content("ASSIGNMENT", { title: "Essay" });
    const bomb = docxBomb(100);
    const r = await api.as(mallory).post("/files", {
      fileName: "essay.docx",
      contentType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
      size: bomb.length,
    });
    expect(r.status).toBe(201);
    const url = new URL(r.body.uploadUrl);
    const put = await api.call("PUT", `${url.pathname}${url.search}`, {
      body: bomb,
      headers: { "content-type": "application/vnd.openxmlformats-officedocument.wordprocessingml.document" },
    });
    expect(put.status).toBe(200);
    const sub = await api.as(mallory).post(`/assignments/${id}/submissions`, { body: null, fileIds: [r.body.fileId] });
    expect(sub.status).toBe(201);
    const sim = await untilSimilaritySettled(api.as(fx.owner).get, `/assignments/${id}/submissions`);
    expect(sim.get(sub.body.id)?.status).toBe("FAILED");
    expect((await api.call("GET", "/healthz")).status).toBe(200);
  });
});
