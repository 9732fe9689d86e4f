import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "../src/config";
import { registerGuardianLookup } from "../src/modules/notifications/hooks";
import { subscribe } from "../src/modules/notifications/live";
import { runDue } from "../src/modules/notifications/schedule";
import { startServer } from "../src/server";
import { useContentSpace } from "./helpers/fixture";
import { callAt, createMemberFixture, eventually, useServer } from "./helpers/server";

const api = useServer();
const fx = useContentSpace(api, { spaceName: "Kinds", participants: ["Ann", "Ben", "Cho"] });
const as = api.as;
const HOUR = 3_600_000;

afterEach(() => {
  api.server.rt.now = () => Date.now();
});

/** Moves the server's clock to `at` and runs what came due (twice: a second run must add nothing). */
async function at(ms: number) {
  api.server.rt.now = () => ms;
  await runDue(api.server.rt);
  await runDue(api.server.rt);
}

const items = async (who: { token: string }, recordId: string) => {
  const res = await as(who).get("/me/notifications?limit=100");
  expect(res.status).toBe(200);
  return (res.body.notifications as any[]).filter((n) => n.recordId === recordId);
};
const kinds = async (who: { token: string }, recordId: string) => (await items(who, recordId)).map((n) => n.kind as string);
/** The kinds but CONTENT (every content of these tests is created visible). */
const dueKinds = async (who: { token: string }, recordId: string) => (await kinds(who, recordId)).filter((k) => k !== "CONTENT");

function mailsTo(dataDir: string, address: string): { subject: string; text: string }[] {
  const dir = join(dataDir, "outbox");
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json") && statSync(join(dir, f)).isFile())
    .sort()
    .map((f) => JSON.parse(readFileSync(join(dir, f), "utf8")))
    .filter((m) => m.to === address.toLowerCase());
}

describe("CONTENT", () => {
  test("a SHARED content in the space's folder reaches its active PARTICIPANTs only; a PRIVATE one only when it turns visible", async () => {
    const [ann] = fx.participants;
    const shared = await fx.content("DOCUMENT", { title: "Reading" });
    expect(await kinds(ann, shared)).toEqual(["CONTENT"]);
    expect(await kinds(fx.admin2, shared)).toEqual([]);
    expect(await kinds(fx.owner, shared)).toEqual([]);
    expect(await kinds(fx.outsider, shared)).toEqual([]);
    const draft = await fx.content("DOCUMENT", { title: "Draft", body: { visibility: "PRIVATE" } });
    expect(await kinds(ann, draft)).toEqual([]);
    expect((await as(fx.owner).patch(`/library/contents/${draft}`, { visibility: "PUBLIC" })).status).toBe(200);
    expect(await kinds(ann, draft)).toEqual(["CONTENT"]);
    expect((await items(ann, draft))[0].url).toBe(`/spaces?space=${fx.spaceId}&content=${draft}`);
  });
});

describe("DUE_SOON", () => {
  test("24 h before dueAt to participants who have not submitted; an extension moves it; never after the moment", async () => {
    const [ann, ben, cho] = fx.participants;
    const due = Date.now() + 3 * 24 * HOUR;
    const id = await fx.content("ASSIGNMENT", { title: "Essay", config: { dueAt: new Date(due).toISOString() } });
    expect((await as(ann).post(`/assignments/${id}/submissions`, { body: "done" })).status).toBe(201);
    const later = due + 24 * HOUR;
    expect(
      (await as(fx.owner).put(`/assignments/${id}/extensions/${cho.profileId}`, { dueAt: new Date(later).toISOString() })).status,
    ).toBe(200);
    await at(due - 25 * HOUR);
    expect(await dueKinds(ben, id)).toEqual([]);
    await at(due - 24 * HOUR + 1);
    expect(await dueKinds(ben, id)).toEqual(["DUE_SOON"]);
    expect(await dueKinds(ann, id)).toEqual([]);
    expect(await dueKinds(cho, id)).toEqual([]);
    expect(await dueKinds(fx.owner, id)).toEqual([]);
    await at(later - 24 * HOUR + 1);
    expect(await dueKinds(cho, id)).toEqual(["DUE_SOON"]);
    expect(await dueKinds(ben, id)).toEqual(["DUE_SOON"]);
  });

  test("a due date set with less than 24 h left notifies at once; one already past never", async () => {
    const ben = fx.participants[1];
    const soon = await fx.content("ASSIGNMENT", { title: "Soon", config: { dueAt: new Date(Date.now() + 2 * HOUR).toISOString() } });
    await eventually(async () => (await dueKinds(ben, soon)).includes("DUE_SOON"));
    const past = await fx.content("ASSIGNMENT", { title: "Past", config: { dueAt: new Date(Date.now() - HOUR).toISOString() } });
    await runDue(api.server.rt);
    expect(await dueKinds(ben, past)).toEqual([]);
  });

  test("a quiz's closesAt reminds who has not submitted", async () => {
    const ben = fx.participants[1];
    const closes = Date.now() + 10 * HOUR;
    const id = await fx.content("QUIZ", { title: "Quiz", config: { closesAt: new Date(closes).toISOString(), questions: [] } });
    await eventually(async () => (await dueKinds(ben, id)).includes("DUE_SOON"));
  });

  test("a deleted content takes its pending reminder with it", async () => {
    const ben = fx.participants[1];
    const due = Date.now() + 5 * 24 * HOUR;
    const id = await fx.content("ASSIGNMENT", { title: "Gone", config: { dueAt: new Date(due).toISOString() } });
    expect((await as(fx.owner).del(`/library/contents/${id}`)).status).toBe(204);
    await at(due - HOUR);
    expect(await dueKinds(ben, id)).toEqual([]);
  });
});

describe("GRADE_RETURNED", () => {
  test("a returned submission notifies its submitter only", async () => {
    const [ann, ben] = fx.participants;
    const id = await fx.content("ASSIGNMENT", { title: "Graded", config: { maxScore: 10 } });
    const sub = (await as(ann).post(`/assignments/${id}/submissions`, { body: "mine" })).body;
    expect((await as(fx.owner).put(`/assignments/${id}/submissions/${sub.id}/grade`, { score: 8 })).status).toBe(200);
    expect(await kinds(ann, id)).toEqual(["CONTENT"]);
    expect((await as(fx.owner).post(`/assignments/${id}/submissions/${sub.id}/return`)).status).toBe(200);
    expect(await kinds(ann, id)).toEqual(["GRADE_RETURNED", "CONTENT"]);
    expect(await kinds(ben, id)).toEqual(["CONTENT"]);
  });
});

describe("CHALLENGE_REMINDER", () => {
  test("m minutes before a task's deadline to members who have not completed it; missed moments give one", async () => {
    const [ann, ben] = fx.participants;
    const deadline = Date.now() + 3 * 24 * HOUR;
    const res = await as(fx.owner).post(`/spaces/${fx.spaceId}/challenges`, {
      title: "Read",
      emoji: "📚",
      reminderMinutes: [60, 1440],
      tasks: [{ title: "Chapter 1", startedAt: new Date(Date.now() - HOUR).toISOString(), deadline: new Date(deadline).toISOString() }],
    });
    expect(res.status).toBe(201);
    const c = res.body;
    const taskId = c.tasks[0].id as string;
    expect(
      (await as(fx.owner).post(`/spaces/${fx.spaceId}/challenges/${c.id}/members`, { userIds: [ann.memberId, ben.memberId] })).status,
    ).toBe(200);
    expect((await as(ann).put(`/spaces/${fx.spaceId}/challenges/${c.id}/tasks/${taskId}/completion`)).status).toBe(200);
    await at(deadline - 1441 * 60_000);
    expect(await kinds(ben, taskId)).toEqual([]);
    // The server was "down" past both moments: one reminder, not two.
    await at(deadline - 30 * 60_000);
    expect(await kinds(ben, taskId)).toEqual(["CHALLENGE_REMINDER"]);
    expect(await kinds(ann, taskId)).toEqual([]);
    expect(await kinds(fx.participants[2], taskId)).toEqual([]);
    await at(deadline + 1);
    expect(await kinds(ben, taskId)).toEqual(["CHALLENGE_REMINDER"]);
  });
});

describe("Guardian copies", () => {
  test("a registered lookup gives each guardian a copy of an emergency naming the student", async () => {
    const [ann] = fx.participants;
    const parent = await createMemberFixture(api.server, fx.owner, { displayName: "Parent" });
    registerGuardianLookup((_db, ids) => new Map(ids.filter((id) => id === ann.memberId).map((id) => [id, [parent.memberId]])));
    try {
      const post = await as(fx.owner).post("/posts", { spaceId: fx.spaceId, title: "Lockdown", isEmergency: true });
      const copies = await items(parent, post.body.id);
      expect(copies.map((n) => [n.kind, n.titleEn])).toEqual([["GUARDIAN_EMERGENCY", "[Ann] Lockdown"]]);
      const plain = await as(fx.owner).post("/posts", { spaceId: fx.spaceId, title: "Plain" });
      expect(await kinds(parent, plain.body.id)).toEqual([]);
    } finally {
      registerGuardianLookup(() => new Map());
    }
  });
});

describe("Digest", () => {
  test("a day's unread items in one mail at the member's hour in the tenant's zone; read ones left out", async () => {
    const cho = fx.participants[2];
    expect((await as(fx.owner).patch("/tenant", { timeZone: "America/New_York" })).status).toBe(200);
    expect((await as(cho).patch("/me/notification-settings", { email: "DIGEST", digestHour: 6, language: "en" })).status).toBe(200);
    expect((await as(cho).post("/me/notifications/mark-read", { all: true })).status).toBe(204);
    const before = mailsTo(api.server.dataDir, cho.email).length;
    const a = await as(fx.owner).post("/posts", { spaceId: fx.spaceId, title: "Digest A" });
    await as(fx.owner).post("/posts", { spaceId: fx.spaceId, title: "Digest B" });
    const c = await as(fx.owner).post("/posts", { spaceId: fx.spaceId, title: "Digest C" });
    const read = (await items(cho, c.body.id))[0].id;
    expect((await as(cho).post("/me/notifications/mark-read", { ids: [read] })).status).toBe(204);
    // 06:00 in New York next: find it from now by hours.
    const fmt = new Intl.DateTimeFormat("en-US", { timeZone: "America/New_York", hour: "numeric", hourCycle: "h23" });
    let sixAm = Math.ceil(Date.now() / HOUR) * HOUR;
    while (Number(fmt.format(sixAm)) !== 6) sixAm += HOUR;
    await at(sixAm - 60_000);
    expect(mailsTo(api.server.dataDir, cho.email).length).toBe(before);
    await at(sixAm);
    const mails = mailsTo(api.server.dataDir, cho.email).slice(before);
    expect(mails.length).toBe(1);
    expect(mails[0]?.subject).toContain("2 new notifications");
    expect(mails[0]?.text).toContain("Digest A");
    expect(mails[0]?.text).toContain("Digest B");
    expect(mails[0]?.text).not.toContain("Digest C");
    expect((await items(cho, a.body.id))[0].readAt).toBeNull();
    await at(sixAm + 24 * HOUR);
    expect(mailsTo(api.server.dataDir, cho.email).length).toBe(before + 1);
    await as(fx.owner).patch("/tenant", { timeZone: "Asia/Seoul" });
  });
});

describe("GET /api/v1/me/notifications/stream — streamMyNotifications", () => {
  test("sends the unread count, then each new item and count; 401 without a token; ends when the session is revoked", async () => {
    const ben = fx.participants[1];
    expect((await api.anon("GET", "/me/notifications/stream")).status).toBe(401);
    const session = await createMemberFixture(api.server, fx.owner, { displayName: "Streamer" });
    await as(fx.owner).post(`/spaces/${fx.spaceId}/members`, { userIds: [session.memberId], role: "PARTICIPANT" });
    const res = await fetch(`${api.url}/api/v1/me/notifications/stream`, { headers: { authorization: `Bearer ${session.token}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    let text = "";
    const until = async (needle: string) => {
      const end = Date.now() + 5000;
      while (!text.includes(needle) && Date.now() < end) {
        const { value, done } = await reader.read();
        if (done) break;
        text += new TextDecoder().decode(value);
      }
      return text.includes(needle);
    };
    expect(await until('"unreadCount":')).toBe(true);
    await as(fx.owner).post("/posts", { spaceId: fx.spaceId, title: "Live one" });
    expect(await until("Live one")).toBe(true);
    expect(text).toContain("event: notification");
    expect(text).toMatch(/event: unread\ndata: \{"unreadCount":\d+\}/);
    // Deactivating the member ends its sessions.
    expect((await as(fx.owner).patch(`/members/${session.memberId}`, { isActive: false })).status).toBe(200);
    const end = Date.now() + 6000;
    let closed = false;
    const t0 = Date.now();
    while (!closed && Date.now() < end)
      closed = await reader.read().then(
        (r) => r.done,
        () => true,
      );
    expect(closed).toBe(true);
    expect(Date.now() - t0).toBeLessThan(5000);
    void ben;
  }, 20_000);

  test("the in-process pub/sub is keyed by member", () => {
    const got: string[] = [];
    const off = subscribe("t", "m1", (e) => got.push(e.event));
    off();
    expect(got).toEqual([]);
  });
});

describe("Restart in the middle of a due moment", () => {
  test("a server down at the moment sends the reminder once at start; a second start adds nothing", async () => {
    const ben = fx.participants[1];
    const due = Date.now() + 2 * 24 * HOUR;
    const id = await fx.content("ASSIGNMENT", { title: "Across restarts", config: { dueAt: new Date(due).toISOString() } });
    const dataDir = api.server.dataDir;
    await api.server.stop();
    for (let round = 0; round < 2; round++) {
      const config = loadConfig([], { LEARNSPACE_IP_RATE_LIMIT: "0", LEARNSPACE_QUIET: "1" }, { port: 0, dataDir });
      const server = startServer(config);
      server.rt.now = () => due - 2 * HOUR;
      try {
        await runDue(server.rt);
        const res = await callAt(server.url, "GET", "/api/v1/me/notifications?limit=100", { token: ben.token });
        expect((res.body.notifications as any[]).filter((n) => n.recordId === id && n.kind !== "CONTENT").map((n) => n.kind)).toEqual([
          "DUE_SOON",
        ]);
      } finally {
        await server.stop();
      }
    }
    // useServer's own teardown stops a server again: give it a running one.
    const config = loadConfig([], { LEARNSPACE_IP_RATE_LIMIT: "0", LEARNSPACE_QUIET: "1" }, { port: 0, dataDir });
    Object.assign(api.server, startServer(config), { dataDir });
  });
});
