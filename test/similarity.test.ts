import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config";
import { stopSimilarityChecks } from "../src/modules/similarity/jobs";
import { startServer } from "../src/server";
import { createContentSpace, createMemberFixture, createTenantFixture, untilSimilaritySettled, useServer } from "./helpers/server";

const api = useServer();
const { as } = api;
type Tenant = Awaited<ReturnType<typeof createTenantFixture>>;
type Member = Awaited<ReturnType<typeof createMemberFixture>>;
type Who = { token: string };

let owner: Tenant;
let admin2: Member;
let p1: Member;
let p2: Member;
let p3: Member;
let p4: Member;
let nodeId: string;
let spaceId: string;

beforeAll(async () => {
  ({
    owner,
    admin2,
    nodeId,
    spaceId,
    participants: [p1, p2, p3, p4],
  } = await createContentSpace(api, { spaceName: "Essays", participants: ["Alice", "Bob", "Carol", "Dave"] }));
});

// ---- texts ----------------------------------------------------------------------------------

/** A deterministic generator: every seed writes its own essay, sharing (almost) no long runs with another seed. */
function rng(seed: number) {
  let s = seed * 2654435761;
  return () => {
    s = (s ^ (s << 13)) >>> 0;
    s = (s ^ (s >>> 17)) >>> 0;
    s = (s ^ (s << 5)) >>> 0;
    return s / 4294967296;
  };
}
const SYLLABLES = ["ka", "lo", "mi", "ten", "sor", "vel", "qua", "dri", "mon", "pe", "stra", "lu", "zen", "ob", "far", "ith"];
const ENGLISH = ["the", "of", "and", "to", "in", "is", "that", "for", "it", "as", "with", "on", "was", "by", "this", "are"];

/** A paragraph of ~`words` words: invented words mixed with common English ones (which alone never reach K characters). */
function paragraph(seed: number, words = 100): string {
  const r = rng(seed);
  const out: string[] = [];
  for (let i = 0; i < words; i++) {
    if (r() < 0.35) out.push(ENGLISH[Math.floor(r() * ENGLISH.length)] as string);
    else out.push(Array.from({ length: 1 + Math.floor(r() * 3) }, () => SYLLABLES[Math.floor(r() * SYLLABLES.length)]).join(""));
  }
  return `${out.join(" ")}.`;
}
const essay = (...seeds: number[]) => seeds.map((s) => paragraph(s)).join("\n\n");

/** Random Hangul syllables in words of 1..4, like Korean prose without its grammar. */
function korean(seed: number, words = 120): string {
  const r = rng(seed);
  const out: string[] = [];
  for (let i = 0; i < words; i++) {
    out.push(Array.from({ length: 1 + Math.floor(r() * 4) }, () => String.fromCharCode(0xac00 + Math.floor(r() * 11172))).join(""));
  }
  return `${out.join(" ")}.`;
}

// ---- helpers --------------------------------------------------------------------------------

async function newAssignment(): Promise<string> {
  const res = await as(owner).post("/library/contents", { type: "ASSIGNMENT", title: "Essay", nodeId, visibility: "SHARED" });
  expect(res.status).toBe(201);
  await as(owner).put(`/assignments/${res.body.id}/config`, { allowResubmit: true });
  return res.body.id;
}

async function submit(who: Who, id: string, json: Record<string, unknown>) {
  const res = await as(who).post(`/assignments/${id}/submissions`, json);
  expect(res.status).toBe(201);
  return res.body.id as string;
}

async function upload(who: Who, fileName: string, contentType: string, bytes: Uint8Array | string) {
  const size = typeof bytes === "string" ? new TextEncoder().encode(bytes).byteLength : bytes.byteLength;
  const r = await as(who).post("/files", { fileName, contentType, size });
  expect(r.status).toBe(201);
  const url = new URL(r.body.uploadUrl);
  const up = await api.call("PUT", `${url.pathname}${url.search}`, { body: bytes, headers: { "content-type": contentType } });
  expect(up.status).toBe(200);
  return r.body.fileId as string;
}

/** The manager's list once no row is PENDING any more, by submission id (see untilSimilaritySettled). */
const settled = (
  id: string,
  path = `/assignments/${id}/submissions?pageSize=100`,
  get: (path: string) => Promise<{ status: number; body: any }> = (p) => as(owner).get(p),
) => untilSimilaritySettled(get, path);

// ---- tests ----------------------------------------------------------------------------------

describe("Submission.similarity — the background check (submissions.md similarity)", () => {
  test("identical texts give 100 both ways, and each is the other's top match; gptCopyRatio is null", async () => {
    const id = await newAssignment();
    const text = essay(1, 2, 3);
    const a = await submit(p1, id, { body: text });
    const b = await submit(p2, id, { body: text });
    const sim = await settled(id);
    expect(sim.get(a)).toEqual({
      status: "COMPLETED",
      copyRatio: 100,
      gptCopyRatio: null,
      matches: [{ submissionId: b, displayName: "Bob", copyRatio: 100 }],
    });
    expect(sim.get(b)).toEqual({
      status: "COMPLETED",
      copyRatio: 100,
      gptCopyRatio: null,
      matches: [{ submissionId: a, displayName: "Alice", copyRatio: 100 }],
    });
  });

  test("the first submission alone has nothing to compare with: 0", async () => {
    const id = await newAssignment();
    const a = await submit(p1, id, { body: essay(4, 5) });
    expect((await settled(id)).get(a)).toEqual({ status: "COMPLETED", copyRatio: 0, gptCopyRatio: null, matches: [] });
  });

  test("one copied paragraph of four scores near its share; the earlier essay's figure is updated too", async () => {
    const id = await newAssignment();
    const a = await submit(p1, id, { body: essay(10, 11, 12, 13) });
    const first = await settled(id);
    expect(first.get(a).copyRatio).toBe(0);
    const b = await submit(p2, id, { body: essay(20, 21, 11, 22) });
    const sim = await settled(id);
    expect(sim.get(b).copyRatio).toBeGreaterThan(15);
    expect(sim.get(b).copyRatio).toBeLessThan(35);
    expect(sim.get(a).copyRatio).toBeGreaterThan(15);
    expect(sim.get(a).copyRatio).toBeLessThan(35);
    expect(sim.get(a).matches[0].submissionId).toBe(b);
  });

  test("reordered paragraphs, recased and repunctuated, still match; an unrelated essay stays near 0", async () => {
    const id = await newAssignment();
    const a = await submit(p1, id, { body: essay(30, 31, 32, 33) });
    const shuffled = essay(33, 31, 30, 32).toUpperCase().replace(/ /g, "  ").replace(/\./g, "!");
    const b = await submit(p2, id, { body: shuffled });
    const c = await submit(p3, id, { body: essay(40, 41, 42, 43) });
    const sim = await settled(id);
    expect(sim.get(b).copyRatio).toBeGreaterThan(90);
    expect(sim.get(b).matches[0].submissionId).toBe(a);
    expect(sim.get(c).copyRatio).toBeLessThan(5);
    // most similar first, up to 3
    expect(sim.get(a).matches.map((m: any) => m.submissionId)).toEqual(sim.get(c).copyRatio > 0 ? [b, c] : [b]);
  });

  test("Korean: spacing, punctuation and decomposed (NFD) Hangul do not hide a copy; unrelated Korean is near 0", async () => {
    const id = await newAssignment();
    const text = `${korean(50)} ${korean(51)}`;
    const a = await submit(p1, id, { body: text });
    const b = await submit(p2, id, { body: text.replace(/ /g, "").replace(/\./g, ", ").normalize("NFD") });
    const c = await submit(p3, id, { body: `${korean(60)} ${korean(61)}` });
    const sim = await settled(id);
    expect(sim.get(b).copyRatio).toBe(100);
    expect(sim.get(a).copyRatio).toBe(100);
    expect(sim.get(c).copyRatio).toBeLessThan(5);
  });

  test("a resubmission replaces the earlier revision in the pool: others stop matching the old text", async () => {
    const id = await newAssignment();
    const copied = essay(70, 71);
    const a = await submit(p1, id, { body: copied });
    const b1 = await submit(p2, id, { body: copied });
    expect((await settled(id)).get(a).copyRatio).toBe(100);
    const b2 = await submit(p2, id, { body: essay(72, 73) });
    const sim = await settled(id);
    expect(sim.get(b2).copyRatio).toBeLessThan(5);
    expect(sim.get(a).copyRatio).toBeLessThan(5);
    // the earlier revision keeps its own figures in the history
    const history = await as(owner).get(`/assignments/${id}/submitters/${p2.profileId}/history`);
    expect(history.body.history[0].id).toBe(b1);
    expect(history.body.history[0].similarity.copyRatio).toBe(100);
  });

  test("the text of PDF, DOCX and Markdown attachments is read; other types are skipped", async () => {
    const id = await newAssignment();
    const pdfText = "Photosynthesis converts light energy into chemical energy stored in glucose molecules inside chloroplasts";
    const docxText =
      "The industrial revolution transformed agrarian societies into urban manufacturing economies powered by steam engines and coal";
    const pdf = await upload(p1, "essay.pdf", "application/pdf", readFileSync(join(import.meta.dir, "fixtures/essay.pdf")));
    const docx = await upload(
      p1,
      "essay.docx",
      "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
      readFileSync(join(import.meta.dir, "fixtures/essay.docx")),
    );
    const a = await submit(p1, id, { body: null, fileIds: [pdf, docx] });
    const b = await submit(p2, id, { body: pdfText });
    const c = await submit(p3, id, { body: docxText });
    const md = await upload(p4, "notes.md", "text/markdown", `# Notes\n\n*${pdfText}*`);
    const png = await upload(p4, "pic.png", "image/png", new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]));
    const d = await submit(p4, id, { body: "", fileIds: [md, png] });
    const sim = await settled(id);
    expect(sim.get(b).copyRatio).toBe(100);
    expect(sim.get(b).matches[0].submissionId).toBe(a);
    expect(sim.get(c).copyRatio).toBe(100);
    expect(sim.get(c).matches[0].submissionId).toBe(a);
    // all of the PDF's sentence, plus the Markdown's own "Notes" heading
    expect(sim.get(d).copyRatio).toBeGreaterThan(80);
    expect(sim.get(d).matches.map((m: any) => m.submissionId)).toContain(b);
    expect(sim.get(a).copyRatio).toBeGreaterThan(30);
  });

  test("an attachment that cannot be read makes the check FAILED", async () => {
    const id = await newAssignment();
    const broken = await upload(p1, "broken.pdf", "application/pdf", "%PDF-1.4 this is not really a pdf");
    const a = await submit(p1, id, { body: "some words of mine", fileIds: [broken] });
    expect((await settled(id)).get(a)).toEqual({ status: "FAILED", copyRatio: null, gptCopyRatio: null, matches: [] });
  });

  test("participants never see it: not in the submit response nor in their own history; every manager does", async () => {
    const id = await newAssignment();
    const res = await as(p1).post(`/assignments/${id}/submissions`, { body: essay(80) });
    expect(res.status).toBe(201);
    expect(res.body.similarity).toBeNull();
    await submit(p2, id, { body: essay(80) });
    await settled(id);
    const mine = await as(p1).get(`/assignments/${id}/my-submission`);
    expect(mine.body.latest.similarity).toBeNull();
    const list = await as(admin2).get(`/assignments/${id}/submissions`);
    expect(list.body.submissions.map((s: any) => s.similarity.copyRatio)).toEqual([100, 100]);
  });
});

describe("GroupSubmission.similarity (group-work.md group submissions)", () => {
  test("two groups handing in the same report both get 100; a group member sees null", async () => {
    const set = await as(owner).post(`/spaces/${spaceId}/group-sets`, {
      name: "Teams",
      groups: [
        { name: "Red", memberIds: [p1.memberId, p2.memberId] },
        { name: "Blue", memberIds: [p3.memberId] },
      ],
    });
    expect(set.status).toBe(201);
    const created = await as(owner).post("/library/contents", { type: "GROUP_ASSIGNMENT", title: "Report", nodeId, visibility: "SHARED" });
    const id = created.body.id as string;
    expect((await as(owner).put(`/group-assignments/${id}/config`, { spaceGroupSetId: set.body.id })).status).toBe(200);
    const text = essay(90, 91);
    const red = await as(p1).post(`/group-assignments/${id}/submissions`, { body: text });
    expect(red.status).toBe(201);
    expect(red.body.similarity).toBeNull();
    const blue = await as(p3).post(`/group-assignments/${id}/submissions`, { body: text });
    const sim = await settled(id, `/group-assignments/${id}/submissions`);
    expect(sim.get(red.body.id)).toEqual({
      status: "COMPLETED",
      copyRatio: 100,
      gptCopyRatio: null,
      matches: [{ submissionId: blue.body.id, displayName: "Blue", copyRatio: 100 }],
    });
    expect(sim.get(blue.body.id).matches[0].displayName).toBe("Red");
    const history = await as(owner).get(`/group-assignments/${id}/groups/${set.body.groups[0].id}/history`);
    expect(history.body.latest.similarity.copyRatio).toBe(100);
    const mine = await as(p2).get(`/group-assignments/${id}/my-submission`);
    expect(mine.body.latest.similarity).toBeNull();
  });
});

describe("Across restarts: pending checks, submissions from before the check, fingerprints of the first version", () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  /** A server on its own data dir that can be stopped and started again, with an assignment and three participants. */
  async function restartable() {
    const dataDir = mkdtempSync(join(tmpdir(), "learnspace-test-"));
    dirs.push(dataDir);
    const start = () => {
      const config = loadConfig([], { LEARNSPACE_IP_RATE_LIMIT: "0", LEARNSPACE_QUIET: "1" }, { port: 0, dataDir });
      return Object.assign(startServer(config), { dataDir });
    };
    const box = { current: start() };
    const send = async (who: Who, method: string, path: string, json?: unknown) => {
      const res = await fetch(`${box.current.url}/api/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${who.token}`, ...(json === undefined ? {} : { "content-type": "application/json" }) },
        body: json === undefined ? undefined : JSON.stringify(json),
      });
      return { status: res.status, body: (await res.json()) as any };
    };
    const get = (who: Who, path: string) => send(who, "GET", path);
    const post = (who: Who, path: string, json: unknown) => send(who, "POST", path, json);
    const boss = await createTenantFixture(box.current);
    const space = (await post(boss, "/spaces", { name: "S" })).body.id;
    const people = [];
    for (const displayName of ["Ann", "Ben", "Cid"]) people.push(await createMemberFixture(box.current, boss, { displayName }));
    await post(boss, `/spaces/${space}/members`, { userIds: people.map((m) => m.memberId), role: "PARTICIPANT" });
    const node = (await post(boss, "/library/nodes", { title: "F", spaceId: space })).body.id;
    const id = (await post(boss, "/library/contents", { type: "ASSIGNMENT", title: "E", nodeId: node, visibility: "SHARED" })).body.id;
    await send(boss, "PUT", `/assignments/${id}/config`, { allowResubmit: true });
    const submitAs = async (who: Who, body: string) => {
      const res = await post(who, `/assignments/${id}/submissions`, { body });
      expect(res.status).toBe(201);
      return res.body.id as string;
    };
    const settle = () => settled(id, `/assignments/${id}/submissions`, (path) => get(boss, path));
    const restart = async (between?: (files: { tenant: Database; platform: Database }) => void) => {
      await box.current.stop();
      if (between) {
        const tenant = new Database(join(dataDir, "tenants", `${boss.tenantId}.sqlite`));
        const platform = new Database(join(dataDir, "platform.sqlite"));
        tenant.exec("PRAGMA busy_timeout = 5000");
        platform.exec("PRAGMA busy_timeout = 5000");
        try {
          between({ tenant, platform });
        } finally {
          tenant.close();
          platform.close();
        }
      }
      box.current = start();
    };
    return { box, boss, people, id, get, submitAs, settle, restart, stop: () => box.current.stop() };
  }

  test("checks queued before the stop run at the next start on the same data dir", async () => {
    const s = await restartable();
    const [m1, m2] = s.people as [Member, Member];
    // the process "dies" before any check runs: the queue stops first, the rows stay PENDING
    await stopSimilarityChecks(s.box.current.rt);
    const text = essay(100, 101);
    await s.submitAs(m1, text);
    await s.submitAs(m2, text);
    const before = await s.get(s.boss, `/assignments/${s.id}/submissions`);
    expect(before.body.submissions.map((x: any) => x.similarity.status)).toEqual(["PENDING", "PENDING"]);
    await s.restart();
    try {
      const sim = await s.settle();
      expect([...sim.values()].map((x) => [x.status, x.copyRatio])).toEqual([
        ["COMPLETED", 100],
        ["COMPLETED", 100],
      ]);
    } finally {
      await s.stop();
    }
  });

  test("submissions from before the check existed get their figures at the next start, resubmissions in their order", async () => {
    const s = await restartable();
    const [m1, m2, m3] = s.people as [Member, Member, Member];
    await stopSimilarityChecks(s.box.current.rt);
    const copied = essay(110, 111);
    const a = await s.submitAs(m1, copied);
    const b1 = await s.submitAs(m2, copied);
    const b2 = await s.submitAs(m2, essay(112, 113));
    const c = await s.submitAs(m3, `${essay(114)}\n\n${paragraph(110)}`);
    // as before the check shipped: no check rows, nothing marked in the platform file
    await s.restart(({ tenant, platform }) => {
      tenant.exec("DELETE FROM similarity_checks");
      platform.exec("DELETE FROM similarity_tenants");
    });
    try {
      const sim = await s.settle();
      expect(sim.get(a).status).toBe("COMPLETED");
      // Ben's latest revision is his own essay: Ann's text is matched only by Cid's copied paragraph
      expect(sim.get(b2).copyRatio).toBeLessThan(5);
      expect(sim.get(a).matches.map((m: any) => m.submissionId)).toEqual([c]);
      expect(sim.get(c).copyRatio).toBeGreaterThan(35);
      expect(sim.get(c).copyRatio).toBeLessThan(65);
      // the earlier revision has its own figure in the history: it copied Ann's essay whole
      const history = await s.get(s.boss, `/assignments/${s.id}/submitters/${m2.profileId}/history`);
      expect(history.body.history.map((h: any) => [h.id, h.similarity.status, h.similarity.copyRatio])).toEqual([[b1, "COMPLETED", 100]]);
    } finally {
      await s.stop();
    }
  });

  test("fingerprints stored one row each by the first version still match, moved into one blob per submission", async () => {
    const s = await restartable();
    const [m1, m2, m3] = s.people as [Member, Member, Member];
    const text = essay(120, 121);
    const a = await s.submitAs(m1, text);
    const b = await s.submitAs(m2, text);
    expect((await s.settle()).get(a).copyRatio).toBe(100);
    // the first version's layout: one (hash, check_seq) row per fingerprint, no blobs
    await s.restart(({ tenant }) => {
      const blobs = tenant.query("SELECT check_seq AS seq, hashes FROM similarity_prints").all() as { seq: number; hashes: Uint8Array }[];
      expect(blobs.length).toBe(2);
      const insert = tenant.prepare("INSERT INTO similarity_fingerprints (hash, check_seq) VALUES (?, ?)");
      for (const { seq, hashes } of blobs) {
        const view = new DataView(hashes.buffer, hashes.byteOffset, hashes.byteLength);
        for (let i = 0; i < hashes.byteLength; i += 4) insert.run(view.getUint32(i, true), seq);
      }
      tenant.exec("DELETE FROM similarity_prints");
    });
    try {
      const c = await s.submitAs(m3, text);
      const sim = await s.settle();
      expect(sim.get(c).copyRatio).toBe(100);
      expect(
        sim
          .get(c)
          .matches.map((m: any) => m.submissionId)
          .sort(),
      ).toEqual([a, b].sort());
      expect(sim.get(a).matches.map((m: any) => m.copyRatio)).toEqual([100, 100]);
    } finally {
      await s.stop();
    }
    const tenant = new Database(join(s.box.current.dataDir, "tenants", `${s.boss.tenantId}.sqlite`), { readonly: true });
    tenant.exec("PRAGMA busy_timeout = 5000");
    try {
      expect(tenant.query("SELECT count(*) AS n FROM similarity_fingerprints").get()).toEqual({ n: 0 });
      expect(tenant.query("SELECT count(*) AS n FROM similarity_prints").get()).toEqual({ n: 3 });
    } finally {
      tenant.close();
    }
  });
});
