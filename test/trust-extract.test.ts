// Bombs in the similarity check's text extraction (docs/rules/trust.md#bombs): a DOCX that unpacks
// to 100 MiB is refused in bounded memory; extracted text stops at 2 MB.
import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Zip, ZipDeflate } from "fflate";
import { ExtractLimitError, extractFileText, inflatesBeyond, MAX_TEXT_BYTES } from "../src/modules/similarity/extract";
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

describe("DOCX bomb", () => {
  const bomb = docxBomb(100);

  test("a ~100 KB DOCX that unpacks to 100 MiB is refused while RSS grows by less than 64 MiB", async () => {
    expect(bomb.length).toBeLessThan(1024 * 1024);
    await expect(extractFileText(new Blob([bomb as Uint8Array<ArrayBuffer>]), "docx")).rejects.toBeInstanceOf(ExtractLimitError);
    // The memory is measured in a process of its own: in the suite's process, RSS also moves with
    // every other test's heap, which says nothing about the extraction.
    const dir = mkdtempSync(join(tmpdir(), "docx-bomb-"));
    writeFileSync(join(dir, "bomb.docx"), bomb);
    const child = Bun.spawnSync([
      process.execPath,
      "-e",
      `const { extractFileText } = await import(${JSON.stringify(join(import.meta.dir, "../src/modules/similarity/extract.ts"))});
       const bytes = await Bun.file(${JSON.stringify(join(dir, "bomb.docx"))}).arrayBuffer();
       Bun.gc(true);
       const before = process.memoryUsage.rss();
       const refused = await extractFileText(new Blob([bytes]), "docx").then(() => "read", (e) => e.constructor.name);
       console.log(JSON.stringify({ refused, grown: process.memoryUsage.rss() - before }));`,
    ]);
    rmSync(dir, { recursive: true, force: true });
    const result = JSON.parse(child.stdout.toString().trim().split("\n").pop() ?? "{}");
    expect(result.refused).toBe("ExtractLimitError");
    expect(result.grown).toBeLessThan(64 * MiB);
  });

  test("the count does not believe declared sizes and stops just past the limit; a real DOCX is still read", async () => {
    const small = docxBomb(2);
    expect(await inflatesBeyond(small, 2 * MiB)).toBe(true);
    expect(await inflatesBeyond(small, 2 * MiB + 4096)).toBe(false);
    const essay = readFileSync(join(import.meta.dir, "fixtures/essay.docx"));
    expect(await inflatesBeyond(essay, 50 * MiB)).toBe(false);
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
