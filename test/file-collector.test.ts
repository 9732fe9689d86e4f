// The file collector (docs/rules/storage.md#file-collector): pending uploads after 24 h, attachments
// no record keeps after the grace period, bytes of no record; a file attached while it runs is kept.
import { describe, expect, test } from "bun:test";
import { collectFilesNow, createFileCollector } from "../src/modules/files/collector";
import { fileKinds, referencingKinds } from "../src/modules/files/kinds";
import { useContentSpace } from "./helpers/fixture";
import { createTenantFixture, useServer } from "./helpers/server";

const HOUR = 3_600_000;
const api = useServer();
const fx = useContentSpace(api, { spaceName: "Files", participants: ["Alice"] });

async function storedIds(tenantId: string) {
  const ids: string[] = [];
  for await (const o of api.server.rt.files.list(tenantId)) ids.push(o.fileId);
  return ids;
}

async function newPost(fileIds: string[]) {
  const res = await api.as(fx.owner).post("/posts", { spaceId: fx.spaceId, title: "With files", fileIds });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

describe("the file collector", () => {
  test("every kind of record that attaches files names the files it keeps (wired in src/app.ts)", () => {
    // A comment's files are named by its post's references (one query for a post and its comments).
    const signed = fileKinds().filter((k) => k !== "comment" && k !== "similarity-check");
    expect(referencingKinds().sort()).toEqual([...signed, "similarity-check"].sort());
    expect(signed.length).toBeGreaterThanOrEqual(10);
  });

  test("removes a stale pending upload, an orphan and a deleted post's file after the grace; keeps a file attached mid-run", async () => {
    const tenantId = fx.owner.tenantId;
    const orphan = await fx.upload(fx.owner, { bytes: "orphan" });
    const lateAttached = await fx.upload(fx.owner, { bytes: "attached while the collector runs" });
    const kept = await fx.upload(fx.owner, { bytes: "kept by a post" });
    const detached = await fx.upload(fx.owner, { bytes: "its post is deleted" });
    const pending = (await api.as(fx.owner).post("/files", { fileName: "never.txt", contentType: "text/plain", size: 3 })).body.fileId;
    const keptPost = await newPost([kept]);
    const gone = await newPost([detached]);
    expect((await api.as(fx.owner).del(`/posts/${gone}`)).status).toBe(204);

    let clock = Date.now() + 25 * HOUR;
    let attachedPost = "";
    const collector = createFileCollector(api.server.rt, {
      now: () => clock,
      graceMs: HOUR,
      afterScan: async (t) => {
        if (t === tenantId && clock > Date.now() + 26 * HOUR) attachedPost = await newPost([lateAttached]);
      },
    });
    // First pass: the stale pending record goes; the unreferenced ready files start their grace.
    const first = await collector.run();
    expect(first.removedFiles).toBe(1);
    expect(first.waiting).toBe(3);
    expect((await api.as(fx.owner).get(`/files/${pending}`)).status).toBe(404);
    expect((await api.as(fx.owner).get(`/files/${orphan}`)).status).toBe(200);

    // After the grace: the orphan and the deleted post's file go; the one attached between scan and sweep stays.
    clock += 2 * HOUR;
    const second = await collector.run();
    expect(attachedPost).not.toBe("");
    expect(second.removedFiles).toBe(2);
    expect(second.removedObjects).toBe(2);
    for (const id of [orphan, detached]) expect((await api.as(fx.owner).get(`/files/${id}`)).status).toBe(404);
    for (const id of [kept, lateAttached]) expect((await api.as(fx.owner).get(`/files/${id}`)).status).toBe(200);
    const stored = await storedIds(tenantId);
    expect(stored).toContain(kept);
    expect(stored).toContain(lateAttached);
    expect(stored).not.toContain(orphan);
    expect(stored).not.toContain(detached);
    const post = await api.as(fx.participants[0]).get(`/posts/${attachedPost}`);
    expect(post.body.attachments.map((a: { fileId: string }) => a.fileId)).toEqual([lateAttached]);
    expect((await api.as(fx.owner).get(`/posts/${keptPost}`)).body.attachments).toHaveLength(1);
  });

  test("a pass with nothing to remove writes nothing: the school does not look worked on (replication tiers)", async () => {
    const rt = api.server.rt;
    const tenantId = fx.owner.tenantId;
    await fx.upload(fx.owner, { bytes: "unreferenced, within its grace" });
    const before = rt.tenants.lastWriteAt(tenantId);
    expect(before).not.toBeNull();
    // The clock past the upload's millisecond, so that a write by the pass would note a later time.
    while (Date.now() <= (before ?? 0)) Bun.sleepSync(1);
    const report = await createFileCollector(rt, { now: () => Date.now() }).run();
    expect(report.removedFiles).toBe(0);
    expect(report.waiting).toBeGreaterThanOrEqual(1);
    expect(rt.tenants.lastWriteAt(tenantId)).toBe(before);
  });

  test("a pass lets the event loop turn before each school (docs/rules/storage.md#one-school-a-turn)", async () => {
    // Schools with no stored files: nothing in their pass waits for I/O, so only the pass's own turn separates them.
    const schools = [await createTenantFixture(api.server), await createTenantFixture(api.server)];
    let turns = 0;
    let counting = true;
    const tick = () => {
      turns++;
      if (counting) setImmediate(tick);
    };
    setImmediate(tick);
    const seen = new Map<string, number>();
    let current = "";
    const collector = createFileCollector(api.server.rt, {
      now: () => {
        if (current) seen.set(current, turns);
        return Date.now();
      },
    });
    // The tenant a pass is on: the collector reads its clock once per school, after listing its files.
    const list = api.server.rt.files.list.bind(api.server.rt.files);
    api.server.rt.files.list = (tenantId: string) => {
      current = tenantId;
      return list(tenantId);
    };
    try {
      await collector.run();
    } finally {
      api.server.rt.files.list = list;
      counting = false;
    }
    const [a, b] = schools.map((s) => seen.get(s.tenantId) as number);
    expect(a).toBeGreaterThan(0);
    expect(b).toBeGreaterThan(a as number);
  });

  test("the server's own collector removes bytes of no record after 24 h and reports it on /metrics", async () => {
    const rt = api.server.rt;
    const tenantId = fx.owner.tenantId;
    const stray = Bun.randomUUIDv7();
    await rt.files.put(tenantId, stray, new Blob(["left by a crash"]));
    const young = await collectFilesNow(rt);
    expect(young.removedObjects).toBe(0);
    expect(await storedIds(tenantId)).toContain(stray);
    const realNow = rt.now;
    rt.now = () => Date.now() + 25 * HOUR;
    try {
      const report = await collectFilesNow(rt);
      expect(report.removedObjects).toBeGreaterThanOrEqual(1);
    } finally {
      rt.now = realNow;
    }
    expect(await storedIds(tenantId)).not.toContain(stray);
    const metrics = await api.call("GET", "/metrics");
    expect(metrics.status).toBe(200);
    expect(String(metrics.body)).toMatch(/^learnspace_files_collected_bytes_total [1-9]/m);
    expect(String(metrics.body)).toMatch(/^learnspace_file_collector_last_run_seconds [1-9]/m);
  });
});
