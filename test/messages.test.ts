// Private conversations between a space's participants and its ADMINs (docs/rules/community.md#messages).
import { beforeAll, describe, expect, test } from "bun:test";
import { useContentSpace } from "./helpers/fixture";
import { fieldOf, forbidden, invalidState, notFound, unauth, useServer } from "./helpers/server";

// The per-member write limit has its own file (community-rate-limit.test.ts).
const api = useServer({ communityRateLimit: 0 });
const { as, anon } = api;
const fx = useContentSpace(api, { spaceName: "Homeroom", participants: ["Ann", "Ben", "Cat"] });
const ann = () => fx.participants[0];
const ben = () => fx.participants[1];
const cat = () => fx.participants[2];

const thread = (profileId: string, spaceId = fx.spaceId) => `/spaces/${spaceId}/conversations/${profileId}/messages`;

async function send(who: { token: string }, profileId: string, body: string, extra: Record<string, unknown> = {}, spaceId = fx.spaceId) {
  const res = await as(who).post(thread(profileId, spaceId), { body, ...extra });
  expect(res.status).toBe(201);
  return res.body as { id: string; [k: string]: any };
}

const conversations = async (who: { token: string }, query = "") => {
  const res = await as(who).get(`/spaces/${fx.spaceId}/conversations${query}`);
  expect(res.status).toBe(200);
  return res.body as { conversations: any[]; nextCursor: string | null };
};

beforeAll(async () => {
  expect((await as(fx.owner).patch(`/spaces/${fx.spaceId}`, { messageEnabled: true })).status).toBe(200);
});

describe("private conversations, both ways", () => {
  test("a participant's own conversation shows before the first message", async () => {
    const mine = await conversations(cat());
    expect(mine).toEqual({
      conversations: [{ profileId: cat().profileId, displayName: "Cat", lastMessageAt: null, lastMessagePreview: null, unreadCount: 0 }],
      nextCursor: null,
    });
    expect((await as(cat()).get(thread(cat().profileId))).body).toEqual({ messages: [], nextCursor: null });
  });

  test("a participant writes, every ADMIN sees it unread, reading marks it read for that reader only, and the reply comes back", async () => {
    const m = await send(ann(), ann().profileId, "Can I hand in the essay on Monday?");
    expect(m).toMatchObject({ authorId: ann().memberId, authorName: "Ann", body: "Can I hand in the essay on Monday?", attachments: [] });

    const forOwner = await conversations(fx.owner);
    const annRow = forOwner.conversations.find((c) => c.profileId === ann().profileId);
    expect(annRow).toMatchObject({ displayName: "Ann", lastMessagePreview: "Can I hand in the essay on Monday?", unreadCount: 1 });
    expect(annRow.lastMessageAt).toBe(m.createdAt);
    expect((await conversations(fx.admin2)).conversations.find((c) => c.profileId === ann().profileId).unreadCount).toBe(1);

    const read = await as(fx.owner).get(thread(ann().profileId));
    expect(read.body.messages.map((x: any) => x.body)).toEqual(["Can I hand in the essay on Monday?"]);
    expect((await conversations(fx.owner)).conversations.find((c) => c.profileId === ann().profileId).unreadCount).toBe(0);
    expect((await conversations(fx.admin2)).conversations.find((c) => c.profileId === ann().profileId).unreadCount).toBe(1);

    const reply = await send(fx.admin2, ann().profileId, "Yes, Monday is fine.");
    expect(reply.authorName).toBe("Admin Two");
    // The ADMINs' own side is never unread for an ADMIN; the reply is unread for Ann.
    expect((await conversations(fx.owner)).conversations.find((c) => c.profileId === ann().profileId).unreadCount).toBe(0);
    expect((await conversations(ann())).conversations[0]).toMatchObject({ unreadCount: 1, lastMessagePreview: "Yes, Monday is fine." });
    const mine = await as(ann()).get(thread(ann().profileId));
    expect(mine.body.messages.map((x: any) => x.body)).toEqual(["Yes, Monday is fine.", "Can I hand in the essay on Monday?"]);
    expect((await conversations(ann())).conversations[0].unreadCount).toBe(0);
  });

  test("an ADMIN may start a conversation; the list is newest first and pages by cursor", async () => {
    await send(fx.owner, ben().profileId, "Ben, please see me after class.");
    const first = await conversations(fx.owner, "?limit=1");
    expect(first.conversations.map((c) => c.profileId)).toEqual([ben().profileId]);
    const second = await conversations(fx.owner, `?limit=1&cursor=${first.nextCursor}`);
    expect(second.conversations.map((c) => c.profileId)).toEqual([ann().profileId]);
    expect(second.nextCursor).toBeNull();
    // Cat has not written and nobody wrote to her: no conversation in the ADMINs' list.
    expect((await conversations(fx.owner)).conversations.map((c) => c.profileId)).not.toContain(cat().profileId);
    // Ben sees only his own.
    expect((await conversations(ben())).conversations.map((c) => c.profileId)).toEqual([ben().profileId]);
    expect(fieldOf(await as(fx.owner).get(`/spaces/${fx.spaceId}/conversations?cursor=nope`))).toBe("cursor");
    expect(fieldOf(await as(fx.owner).get(`/spaces/${fx.spaceId}/conversations?limit=0`))).toBe("limit");
  });

  test("messages page newest first by cursor", async () => {
    for (const body of ["one", "two", "three"]) await send(cat(), cat().profileId, body);
    const page = await as(fx.owner).get(`${thread(cat().profileId)}?limit=2`);
    expect(page.body.messages.map((x: any) => x.body)).toEqual(["three", "two"]);
    const rest = await as(fx.owner).get(`${thread(cat().profileId)}?limit=2&cursor=${page.body.nextCursor}`);
    expect(rest.body.messages.map((x: any) => x.body)).toEqual(["one"]);
    expect(rest.body.nextCursor).toBeNull();
    expect(fieldOf(await as(fx.owner).get(`${thread(ann().profileId)}?cursor=${page.body.nextCursor}`))).toBe("cursor");
  });

  test("attachments reach both sides and nobody else", async () => {
    const f = await fx.upload(ann(), { bytes: "late note" });
    const m = await send(ann(), ann().profileId, "Doctor's note", { fileIds: [f] });
    expect(m.attachments[0]).toMatchObject({ fileId: f });
    const seen = (await as(fx.admin2).get(thread(ann().profileId))).body.messages.find((x: any) => x.id === m.id);
    const url = new URL(seen.attachments[0].url);
    const dl = await api.call("GET", `${url.pathname}${url.search}`);
    expect(dl.status).toBe(200);
    expect(dl.body).toBe("late note");
    expect((await as(fx.owner).get(`/files/${f}`)).status).toBe(200);
    notFound(await as(ben()).get(`/files/${f}`));
    expect(fieldOf(await as(ben()).post(thread(ben().profileId), { body: "x", fileIds: [f] }))).toBe("fileIds[0]");
  });
});

describe("who reaches a conversation", () => {
  test("another participant, an outsider, another tenant and a non-participant profile get 404; 401 without a token", async () => {
    const path = thread(ann().profileId);
    for (const who of [ben(), fx.outsider, fx.other]) {
      notFound(await as(who).get(path));
      notFound(await as(who).post(path, { body: "x" }));
    }
    notFound(await as(fx.owner).get(thread(fx.admin2.profileId))); // an ADMIN has no conversation
    notFound(await as(fx.owner).get(thread(fx.outsider.profileId))); // not enrolled
    notFound(await as(fx.owner).get(thread("nope")));
    notFound(await as(fx.owner).get(thread(ann().profileId, "nope")));
    unauth(await anon("GET", path));
    unauth(await anon("POST", path, { body: "x" }));
  });

  test("listing: an outsider of a private space gets 404, another tenant 404, a non-enrolled viewer of a public space 403", async () => {
    notFound(await as(fx.outsider).get(`/spaces/${fx.spaceId}/conversations`));
    notFound(await as(fx.other).get(`/spaces/${fx.spaceId}/conversations`));
    const open = (await as(fx.owner).post("/spaces", { name: "Open", isPublic: true })).body.id;
    forbidden(await as(fx.outsider).get(`/spaces/${open}/conversations`));
    unauth(await anon("GET", `/spaces/${fx.spaceId}/conversations`));
  });
});

describe("when messages are off or the space is archived", () => {
  test("messageEnabled false refuses sending (409) on both sides and keeps reading", async () => {
    const s = (await as(fx.owner).post("/spaces", { name: "Quiet" })).body.id as string;
    await as(fx.owner).post(`/spaces/${s}/members`, { userIds: [ann().memberId], role: "PARTICIPANT" });
    await as(fx.owner).patch(`/spaces/${s}`, { messageEnabled: true });
    await send(ann(), ann().profileId, "Before", {}, s);
    expect((await as(fx.owner).patch(`/spaces/${s}`, { messageEnabled: false })).status).toBe(200);
    invalidState(await as(ann()).post(thread(ann().profileId, s), { body: "After" }));
    invalidState(await as(fx.owner).post(thread(ann().profileId, s), { body: "After" }));
    expect((await as(ann()).get(thread(ann().profileId, s))).body.messages.map((m: any) => m.body)).toEqual(["Before"]);
    expect((await as(fx.owner).get(`/spaces/${s}/conversations`)).body.conversations).toHaveLength(1);

    await as(fx.owner).patch(`/spaces/${s}`, { messageEnabled: true, isActive: false });
    invalidState(await as(ann()).post(thread(ann().profileId, s), { body: "Archived" }));
    expect((await as(ann()).get(thread(ann().profileId, s))).status).toBe(200);
  });

  test("returns 400 naming each bound", async () => {
    const path = thread(ann().profileId);
    expect(fieldOf(await as(ann()).post(path, {}))).toBe("body");
    expect(fieldOf(await as(ann()).post(path, { body: "" }))).toBe("body");
    expect(fieldOf(await as(ann()).post(path, { body: "x".repeat(5001) }))).toBe("body");
    expect(fieldOf(await as(ann()).post(path, { body: "\u0000" }))).toBe("body");
    expect(fieldOf(await as(ann()).post(path, { body: "x", fileIds: ["a", "b", "c", "d", "e", "f"] }))).toBe("fileIds");
    expect(fieldOf(await as(ann()).get(`${path}?limit=101`))).toBe("limit");
  });
});

describe("notifications of messages", () => {
  const inboxFor = async (who: { token: string }, recordId: string) =>
    ((await as(who).get("/me/notifications?limit=100")).body.notifications as any[]).filter((n) => n.recordId === recordId);

  test("a participant's message tells every ADMIN; an ADMIN's reply tells the participant only", async () => {
    const m = await send(cat(), cat().profileId, "Question about homework");
    const [toOwner] = await inboxFor(fx.owner, m.id);
    expect(toOwner).toMatchObject({ kind: "MESSAGE", recordType: "MESSAGE", spaceId: fx.spaceId, bodyPreview: "Question about homework" });
    expect(toOwner.url).toBe(`/spaces?space=${fx.spaceId}&tab=messages&conversation=${cat().profileId}`);
    expect((await inboxFor(fx.admin2, m.id)).map((n) => n.kind)).toEqual(["MESSAGE"]);
    expect(await inboxFor(cat(), m.id)).toEqual([]);
    expect(await inboxFor(ann(), m.id)).toEqual([]);

    const reply = await send(fx.owner, cat().profileId, "Page 12");
    expect((await inboxFor(cat(), reply.id)).map((n) => n.kind)).toEqual(["MESSAGE"]);
    expect(await inboxFor(fx.admin2, reply.id)).toEqual([]);
    expect(await inboxFor(fx.owner, reply.id)).toEqual([]);
  });
});
