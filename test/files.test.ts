import { beforeAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { attachmentOf, requireReadyFiles } from "../src/modules/files/attachments";
import { storedFilePath } from "../src/platform/files/storage";
import { ANONYMOUS_READER, fileDownloadUrl, signFileToken } from "../src/platform/files/tokens";
import { Problem } from "../src/platform/http/errors";
import type { Tenant } from "./helpers/fixture";
import { createMemberFixture, createTenantFixture, eventually, expectProblem, useServer } from "./helpers/server";

const s = useServer();
let owner: Tenant;
let other: Tenant;
let member: { memberId: string; token: string };

beforeAll(async () => {
  owner = await createTenantFixture(s.server);
  other = await createTenantFixture(s.server);
  member = await createMemberFixture(s.server, owner);
});

const MiB = 1024 * 1024;

const request = (json: unknown, token = owner.token) => s.call("POST", "/api/v1/files", { json, token });

/** requestUpload, returning the ticket and the path + query of its uploadUrl. */
async function ticket(body: { fileName?: string; contentType?: string; size?: number } = {}, token = owner.token) {
  const res = await request({ fileName: "notes.txt", contentType: "text/plain", size: 5, ...body }, token);
  expect(res.status).toBe(201);
  const url = new URL(res.body.uploadUrl);
  return { ...res.body, path: `${url.pathname}${url.search}` } as { fileId: string; uploadUrl: string; contentType: string; path: string };
}

const put = (path: string, body: BodyInit | null, contentType: string | null = "text/plain") =>
  s.call("PUT", path, { body: body as any, headers: contentType === null ? {} : { "content-type": contentType } });

const tokenOf = (path: string) => new URL(path, s.url).searchParams.get("token") as string;

/** Attaches the owner's ready file to a new PUBLIC content: the record a download URL names. */
async function attached(fileId: string) {
  const json = { type: "ASSIGNMENT", title: "Files", visibility: "PUBLIC", fileIds: [fileId] };
  const res = await s.call("POST", "/api/v1/library/contents", { token: owner.token, json });
  expect(res.status).toBe(201);
  return `content:${res.body.id}`;
}

/** A download URL as a record would emit it, for the uploader's own view unless told otherwise. */
const downloadUrl = async (fileId: string, f: { tenantId?: string; readerId?: string; attachedTo?: string } = {}) =>
  fileDownloadUrl(s.server.rt, {
    tenantId: f.tenantId ?? owner.tenantId,
    fileId,
    readerId: f.readerId ?? owner.memberId,
    attachedTo: f.attachedTo ?? (await attached(fileId)),
  });

const download = (url: string) => fetch(url.replace(s.server.rt.config.publicUrl, s.url));

async function problemOf(res: Response, status: number, code: string) {
  const text = await res.text();
  return expectProblem({ status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null }, status, code);
}

/** A body of `total` bytes sent as a chunked stream, in 64 KiB chunks of a repeating pattern. */
function streamOf(total: number) {
  const chunk = new Uint8Array(64 * 1024).map((_, i) => (i * 31) % 251);
  const hash = createHash("sha256");
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= total) return controller.close();
      const part = chunk.subarray(0, Math.min(chunk.byteLength, total - sent));
      sent += part.byteLength;
      hash.update(part);
      controller.enqueue(part.slice());
    },
  });
  return { body, digest: () => hash.digest("hex") };
}

describe("POST /api/v1/files — requestUpload", () => {
  test("creates a pending file and a signed one-use upload URL under the public URL", async () => {
    const res = await request({ fileName: "report.pdf", contentType: "application/pdf", size: 1234 });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ fileId: expect.any(String), uploadUrl: expect.any(String), contentType: "application/pdf" });
    expect(res.body.uploadUrl).toStartWith(`${s.server.rt.config.publicUrl}/api/v1/files/${res.body.fileId}/content?token=`);
    const file = await s.call("GET", `/api/v1/files/${res.body.fileId}`, { token: owner.token });
    expect(file.body).toEqual({
      fileId: res.body.fileId,
      fileName: "report.pdf",
      contentType: "application/pdf",
      size: 1234,
      status: "pending",
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
  });

  test("returns 400 for each bound of fileName, contentType and size", async () => {
    const ok = { fileName: "a.txt", contentType: "text/plain", size: 1 };
    for (const [body, field] of [
      [{ ...ok, fileName: "" }, "fileName"],
      [{ ...ok, fileName: "x".repeat(501) }, "fileName"],
      [{ contentType: "text/plain" }, "fileName"],
      [{ ...ok, contentType: "" }, "contentType"],
      [{ ...ok, contentType: "x".repeat(201) }, "contentType"],
      [{ fileName: "a.txt" }, "contentType"],
      [{ ...ok, size: 1_073_741_825 }, "size"],
      [{ ...ok, size: -1 }, "size"],
      [{ ...ok, size: 1.5 }, "size"],
      // A number in a JSON body is a JSON number, never a numeric string.
      [{ ...ok, size: "5" }, "size"],
      [{ ...ok, size: " " }, "size"],
      [{ ...ok, size: "0x1F" }, "size"],
    ] as const) {
      const problem = expectProblem(await request(body), 400, "VALIDATION_FAILED");
      expect(problem.errors).toContainEqual(expect.objectContaining({ in: "body", field }));
    }
    expect((await request({ ...ok, fileName: "x".repeat(500), contentType: "y".repeat(200), size: 1_073_741_824 })).status).toBe(201);
    expect((await request({ ...ok, size: 0 })).status).toBe(201);
  });

  test("returns 401 without a bearer token", async () => {
    expectProblem(await request({ fileName: "a", contentType: "b", size: 1 }, ""), 401, "UNAUTHENTICATED");
  });
});

describe("PUT /api/v1/files/{fileId}/content — uploadFileContent", () => {
  test("stores the bytes; the file turns ready and downloads as the same bytes with its headers", async () => {
    const t = await ticket({ fileName: "hello.txt", size: 11 });
    const res = await put(t.path, "hello world");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      fileId: t.fileId,
      fileName: "hello.txt",
      contentType: "text/plain",
      size: 11,
      status: "ready",
      createdAt: expect.any(String),
    });
    expect((await s.call("GET", `/api/v1/files/${t.fileId}`, { token: owner.token })).body).toEqual(res.body);
    const got = await download(await downloadUrl(t.fileId));
    expect(got.status).toBe(200);
    expect(got.headers.get("content-type")).toBe("text/plain");
    expect(got.headers.get("content-length")).toBe("11");
    expect(got.headers.get("content-disposition")).toBe(`attachment; filename="hello.txt"; filename*=UTF-8''hello.txt`);
    expect(got.headers.get("x-content-type-options")).toBe("nosniff");
    expect(await got.text()).toBe("hello world");
    expect(existsSync(storedFilePath(s.server.dataDir, owner.tenantId, t.fileId))).toBe(true);
  });

  test("a second PUT with the same URL gets 409 INVALID_STATE and leaves the bytes alone", async () => {
    const t = await ticket();
    expect((await put(t.path, "first")).status).toBe(200);
    expectProblem(await put(t.path, "other"), 409, "INVALID_STATE");
    expect(await (await download(await downloadUrl(t.fileId))).text()).toBe("first");
  });

  test("returns 400 when the byte count differs from the declared size; the file stays pending and a correct retry works", async () => {
    const t = await ticket({ size: 5 });
    for (const bytes of ["four", "sixsix", ""]) {
      const problem = expectProblem(await put(t.path, bytes), 400, "VALIDATION_FAILED");
      expect(problem.errors[0]).toMatchObject({ in: "body", field: "body" });
    }
    // Chunked bodies carry no Content-Length: the count decides, while streaming.
    expectProblem(await put(t.path, streamOf(6).body), 400, "VALIDATION_FAILED");
    expectProblem(await put(t.path, streamOf(4).body), 400, "VALIDATION_FAILED");
    expect((await s.call("GET", `/api/v1/files/${t.fileId}`, { token: owner.token })).body.status).toBe("pending");
    const dir = join(s.server.dataDir, "files", owner.tenantId);
    expect(existsSync(dir) ? readdirSync(dir).filter((f) => f.startsWith(t.fileId)) : []).toEqual([]);
    expect((await put(t.path, "right")).status).toBe(200);
  });

  test("returns 400 when Content-Type differs from the declared contentType", async () => {
    const t = await ticket({ contentType: "image/png", size: 3 });
    for (const type of ["image/jpeg", "text/plain", null]) {
      const problem = expectProblem(await put(t.path, "png", type), 400, "VALIDATION_FAILED");
      expect(problem.errors[0]).toMatchObject({ field: "Content-Type" });
    }
    expect((await put(t.path, "png", "IMAGE/PNG")).status).toBe(200);
  });

  test("takes bytes of any type as they are, JSON over 4 MiB included (the JSON body limit does not apply)", async () => {
    const size = 5 * MiB;
    const json = `[${" ".repeat(size - 2)}]`;
    const t = await ticket({ fileName: "data.json", contentType: "application/json", size });
    const res = await put(t.path, json, "application/json");
    expect(res.status).toBe(200);
    expect(res.body.size).toBe(size);
    for (const type of ["application/x-www-form-urlencoded", "application/octet-stream", "multipart/form-data"]) {
      const f = await ticket({ contentType: type, size: 7 });
      expect((await put(f.path, "a=1&b=2", type)).status).toBe(200);
      expect(await (await download(await downloadUrl(f.fileId))).text()).toBe("a=1&b=2");
    }
  });

  test("without a declared size any count up to 1 GiB is taken and recorded; size 0 takes an empty body", async () => {
    const t = await ticket({ size: undefined });
    expect((await s.call("GET", `/api/v1/files/${t.fileId}`, { token: owner.token })).body.size).toBeNull();
    expect((await put(t.path, "twelve bytes")).body).toMatchObject({ size: 12, status: "ready" });
    const empty = await ticket({ size: 0 });
    expect((await put(empty.path, null)).body).toMatchObject({ size: 0, status: "ready" });
    const got = await download(await downloadUrl(empty.fileId));
    expect(got.headers.get("content-length")).toBe("0");
    expect(await got.text()).toBe("");
  });

  test("streams a 20 MiB chunked upload to disk and back", async () => {
    const size = 20 * MiB;
    const t = await ticket({ fileName: "big.bin", contentType: "application/octet-stream", size });
    const upload = streamOf(size);
    const res = await put(t.path, upload.body, "application/octet-stream");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ size, status: "ready" });
    const got = await download(await downloadUrl(t.fileId));
    expect(got.headers.get("content-length")).toBe(String(size));
    const hash = createHash("sha256");
    for await (const chunk of got.body as unknown as AsyncIterable<Uint8Array>) hash.update(chunk);
    expect(hash.digest("hex")).toBe(upload.digest());
  });

  test("returns 401 for a missing, tampered, expired or foreign token, before any other check", async () => {
    const t = await ticket();
    const other1 = await ticket();
    const token = tokenOf(t.path);
    const base = `/api/v1/files/${t.fileId}/content`;
    const expired = signFileToken(s.server.rt.secret, {
      purpose: "upload",
      tenantId: owner.tenantId,
      fileId: t.fileId,
      expiresAt: Date.now() - 1,
    });
    const tampered = `${token.slice(0, -2)}${token.endsWith("AA") ? "BB" : "AA"}`;
    const [payload, sig] = token.split(".") as [string, string];
    const [, , , exp] = JSON.parse(Buffer.from(payload, "base64url").toString());
    const swapped = `${Buffer.from(JSON.stringify(["u", owner.tenantId, other1.fileId, exp])).toString("base64url")}.${sig}`;
    const downloadToken = tokenOf(await downloadUrl(t.fileId, { attachedTo: "content:none" }));
    for (const query of [
      "",
      "?token=",
      `?token=${expired}`,
      `?token=${tampered}`,
      `?token=${swapped}`,
      `?token=${downloadToken}`,
      "?token=x.y",
    ]) {
      expectProblem(await put(`${base}${query}`, "wrong size and type", "image/gif"), 401, "UNAUTHENTICATED");
    }
    // Another file's valid token does not open this file.
    expectProblem(await put(`${base}?token=${encodeURIComponent(tokenOf(other1.path))}`, "hello"), 401, "UNAUTHENTICATED");
    expect((await put(t.path, "hello")).status).toBe(200);
  });
});

describe("GET /api/v1/files/{fileId} — getFile", () => {
  test("returns 404 for another member's file and for a file of another tenant", async () => {
    const t = await ticket();
    expectProblem(await s.call("GET", `/api/v1/files/${t.fileId}`, { token: member.token }), 404, "NOT_FOUND");
    expectProblem(await s.call("GET", `/api/v1/files/${t.fileId}`, { token: other.token }), 404, "NOT_FOUND");
    expectProblem(await s.call("GET", "/api/v1/files/unknown", { token: owner.token }), 404, "NOT_FOUND");
  });

  test("returns 401 without a bearer token", async () => {
    const t = await ticket();
    expectProblem(await s.call("GET", `/api/v1/files/${t.fileId}`), 401, "UNAUTHENTICATED");
  });
});

describe("GET /api/v1/files/{fileId}/content — downloadFileContent", () => {
  test("a non-ASCII file name round-trips in Content-Disposition (filename* UTF-8, ASCII fallback)", async () => {
    const name = '과제 "최종" 100%.pdf';
    const t = await ticket({ fileName: name, contentType: "application/pdf", size: 4 });
    await put(t.path, "%PDF", "application/pdf");
    const got = await download(await downloadUrl(t.fileId));
    const disposition = got.headers.get("content-disposition") as string;
    expect(disposition).toStartWith('attachment; filename="');
    expect(disposition).not.toMatch(/[^\x20-\x7e]/);
    const star = /filename\*=UTF-8''([^;]+)/.exec(disposition)?.[1] as string;
    expect(decodeURIComponent(star)).toBe(name);
    expect(/filename="([^"]*)"/.exec(disposition)?.[1]).toBe("__ ____ 100_.pdf");
  });

  test("returns 401 for a missing, tampered, expired or upload token, a token of another file, or a reader who left", async () => {
    const t = await ticket();
    await put(t.path, "hello");
    const other1 = await ticket();
    await put(other1.path, "other");
    const token = tokenOf(await downloadUrl(t.fileId));
    const base = `${s.url}/api/v1/files/${t.fileId}/content`;
    const expired = signFileToken(s.server.rt.secret, {
      purpose: "download",
      tenantId: owner.tenantId,
      fileId: t.fileId,
      expiresAt: Date.now() - 1,
      readerId: owner.memberId,
      attachedTo: "file",
    });
    const foreign = signFileToken("another-secret", {
      purpose: "download",
      tenantId: owner.tenantId,
      fileId: t.fileId,
      expiresAt: Date.now() + 60_000,
      readerId: owner.memberId,
      attachedTo: "file",
    });
    const tampered = `${token.slice(0, -2)}${token.endsWith("AA") ? "BB" : "AA"}`;
    for (const query of [
      "",
      `?token=${expired}`,
      `?token=${foreign}`,
      `?token=${tampered}`,
      `?token=${tokenOf(t.path)}`,
      `?token=${tokenOf(await downloadUrl(other1.fileId))}`,
      `?token=${tokenOf(await downloadUrl(t.fileId, { readerId: "no-such-member" }))}`,
    ]) {
      await problemOf(await fetch(`${base}${query}`), 401, "UNAUTHENTICATED");
    }
    expect((await download(await downloadUrl(t.fileId, { readerId: member.memberId }))).status).toBe(200);
    // a URL naming no record a module answers for is refused like a detached one (docs/rules/files.md#download-rules)
    await problemOf(await download(await downloadUrl(t.fileId, { attachedTo: "probe:x" })), 404, "NOT_FOUND");
  });

  test("a URL naming no reader only opens public records' files (the login page's images)", async () => {
    const t = await ticket();
    await put(t.path, "hello");
    const attachedTo = await attached(t.fileId);
    await problemOf(await download(await downloadUrl(t.fileId, { readerId: ANONYMOUS_READER, attachedTo })), 404, "NOT_FOUND");
    await problemOf(await download(await downloadUrl(t.fileId, { readerId: ANONYMOUS_READER, attachedTo: "file" })), 404, "NOT_FOUND");
    // Not the login page's image: gone.
    await problemOf(
      await download(await downloadUrl(t.fileId, { readerId: ANONYMOUS_READER, attachedTo: "login-page:live" })),
      404,
      "NOT_FOUND",
    );
  });

  test("returns 404 for a file that is pending, gone from disk, or in a tenant whose file is gone", async () => {
    const pending = await ticket();
    await problemOf(await download(await downloadUrl(pending.fileId, { attachedTo: "content:none" })), 404, "NOT_FOUND");
    const t = await ticket();
    await put(t.path, "hello");
    rmSync(storedFilePath(s.server.dataDir, owner.tenantId, t.fileId));
    await problemOf(await download(await downloadUrl(t.fileId)), 404, "NOT_FOUND");
    const ghost = "00000000-0000-4000-8000-000000000000";
    await problemOf(await download(await downloadUrl(t.fileId, { tenantId: ghost, attachedTo: "content:none" })), 404, "NOT_FOUND");
  });
});

describe("attachments — requireReadyFiles and attachmentOf", () => {
  test("accepts the caller's own ready uploads in order and names every other id", async () => {
    const a = await ticket({ fileName: "a.txt", size: 1 });
    await put(a.path, "a");
    const b = await ticket({ fileName: "b.txt", size: 2 });
    await put(b.path, "bb");
    const pending = await ticket();
    const theirs = await ticket({ size: 1 }, member.token);
    await put(theirs.path, "m");
    const rows = s.server.rt.tenants.use(owner.tenantId, (h) => requireReadyFiles(h.db, owner, [b.fileId, a.fileId]));
    expect(rows).toEqual([
      { id: b.fileId, fileName: "b.txt", contentType: "text/plain", size: 2 },
      { id: a.fileId, fileName: "a.txt", contentType: "text/plain", size: 1 },
    ]);
    let thrown: unknown;
    try {
      s.server.rt.tenants.use(owner.tenantId, (h) =>
        requireReadyFiles(h.db, owner, [a.fileId, pending.fileId, theirs.fileId, "nope", a.fileId], "attachmentFileIds"),
      );
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(Problem);
    expect((thrown as Problem).status).toBe(400);
    expect((thrown as Problem).errors?.map((e) => e.field)).toEqual([
      "attachmentFileIds[1]",
      "attachmentFileIds[2]",
      "attachmentFileIds[3]",
      "attachmentFileIds[4]",
    ]);

    const attachment = attachmentOf(
      s.server.rt,
      { tenantId: owner.tenantId, memberId: member.memberId },
      rows[0]!,
      await attached(b.fileId),
    );
    expect(attachment).toEqual({
      fileId: b.fileId,
      name: "b.txt",
      contentType: "text/plain",
      size: 2,
      url: expect.stringContaining(`/api/v1/files/${b.fileId}/content?token=`),
      preview: { status: "none", pdfUrl: null, pageCount: null, reason: null },
    });
    expect(await (await download(attachment.url as string)).text()).toBe("bb");
  });
});

describe("uploadFileContent — interrupted transfers", () => {
  test("a client that disconnects mid-upload leaves no partial file and the file stays pending", async () => {
    const t = await ticket({ contentType: "application/octet-stream", size: 8 * MiB });
    const abort = new AbortController();
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (sent >= 2 * MiB) {
          await Bun.sleep(50);
          abort.abort();
          return;
        }
        sent += 256 * 1024;
        controller.enqueue(new Uint8Array(256 * 1024));
      },
    });
    await fetch(`${s.url}${t.path}`, {
      method: "PUT",
      headers: { "content-type": "application/octet-stream" },
      body,
      signal: abort.signal,
    }).catch(() => null);
    const dir = join(s.server.dataDir, "files", owner.tenantId);
    const leftovers = () => (existsSync(dir) ? readdirSync(dir).filter((f) => f.startsWith(t.fileId)) : []);
    await eventually(() => leftovers().length === 0);
    expect((await s.call("GET", `/api/v1/files/${t.fileId}`, { token: owner.token })).body.status).toBe("pending");
  });
});

describe("file names that try to be something else", () => {
  test("path separators, control characters and bidi overrides are neutralised, in the record and in Content-Disposition", async () => {
    const cases: [string, string][] = [
      ["../../etc/passwd", ".._.._etc_passwd"],
      ["a\\b\\c.txt", "a_b_c.txt"],
      ["invoice\u202Efdp.exe", "invoice_fdp.exe"],
      ["tab\there\u0007.txt", "tab_here_.txt"],
      ["..", "file"],
    ];
    for (const [name, safe] of cases) {
      const t = await ticket({ fileName: name, contentType: "text/html", size: 5 });
      expect((await put(t.path, "<b>x!", "text/html")).status).toBeLessThan(300);
      const record = await s.call("GET", `/api/v1/files/${t.fileId}`, { token: owner.token });
      expect(record.body?.fileName).toBe(safe);
      const got = await download(await downloadUrl(t.fileId));
      const disposition = got.headers.get("content-disposition") as string;
      expect(decodeURIComponent(/filename\*=UTF-8''([^;]+)/.exec(disposition)?.[1] as string)).toBe(safe);
      expect(/filename="([^"]*)"/.exec(disposition)?.[1]).toBe(safe);
      // An HTML upload is never rendered as a page of our origin.
      expect(disposition).toStartWith("attachment;");
      expect(got.headers.get("x-content-type-options")).toBe("nosniff");
      expect(got.headers.get("content-security-policy")).toBe("sandbox");
    }
  });
});
