import { beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { invitations } from "../src/modules/invitations/tables";
import { verifyPassword } from "../src/platform/auth/password";
import { directoryOf } from "../src/platform/db/registry";
import { members } from "../src/schema/members";
import { roles } from "../src/schema/roles";
import type { Tenant } from "./helpers/fixture";
import { createMemberFixture, createTenantFixture, expectProblem, useServer } from "./helpers/server";

const s = useServer();
let owner: Tenant;
let other: Tenant;
let noPerm: { token: string };
let inviter: { token: string };

beforeAll(async () => {
  owner = await createTenantFixture(s.server);
  other = await createTenantFixture(s.server);
  noPerm = await createMemberFixture(s.server, owner);
  inviter = await createMemberFixture(s.server, owner, { permissions: ["member:invite"] });
});

const DAY = 24 * 60 * 60 * 1000;
let seq = 0;
const email = (p = "inv") => `${p}-${++seq}-${Math.random().toString(36).slice(2, 7)}@example.com`;

const invite = (body: unknown, token = owner.token) => s.call("POST", "/api/v1/invitations", { json: body, token });
const inviteOne = async (address: string, t: { token: string } = owner, roleKey?: string) => {
  const res = await invite({ emails: [address], ...(roleKey ? { roleKey } : {}) }, t.token);
  expect(res.status).toBe(201);
  return res.body.invited[0];
};
const listInv = (qs: string, token = owner.token) => s.call("GET", `/api/v1/invitations${qs}`, { token });
const accept = (token: string, body: unknown) =>
  s.call("POST", `/api/v1/public/invitations/${encodeURIComponent(token)}/accept`, { json: body });
const inTenant = <T>(tenantId: string, fn: (db: any) => T) => s.server.rt.tenants.use(tenantId, (h) => fn(h.db));
/** Moves an invitation back in time: cooldowns and expiry without waiting. */
const age = (tenantId: string, id: string, set: { sentAt?: number; expiresAt?: number }) =>
  inTenant(tenantId, (db) => db.update(invitations).set(set).where(eq(invitations.id, id)).run());
const pastCooldown = (tenantId: string, id: string) => age(tenantId, id, { sentAt: Date.now() - 61_000 });

/** The mails in the outbox to an address, oldest first. */
function mailsTo(address: string): { to: string; subject: string; text: string; html: string }[] {
  const dir = join(s.server.dataDir, "outbox");
  return readdirSync(dir)
    .sort()
    .map((f) => JSON.parse(readFileSync(join(dir, f), "utf8")))
    .filter((m) => m.to === address.toLowerCase());
}
function lastToken(address: string): string {
  const mails = mailsTo(address);
  const m = mails[mails.length - 1]?.text.match(/[?&]token=([^\s&]+)/);
  if (!m) throw new Error(`no invitation mail to ${address}`);
  return decodeURIComponent(m[1] as string);
}

const goodAccept = { displayName: "New Person", password: "Str0ng-pass" };

describe("POST /api/v1/invitations — createInvitations", () => {
  test("invites with the default role and sends a Korean and English mail with an accept link", async () => {
    const address = email("Mixed").replace("mixed", "MiXeD");
    const before = Date.now();
    const res = await invite({ emails: [address] });
    expect(res.status).toBe(201);
    expect(res.body.failed).toEqual([]);
    const inv = res.body.invited[0];
    expect(inv).toMatchObject({
      email: address.toLowerCase(),
      role: { key: "member", name: "Member" },
      status: "pending",
      acceptedAt: null,
    });
    expect(Date.parse(inv.sentAt)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(inv.expiresAt) - Date.parse(inv.sentAt)).toBe(7 * DAY);
    expect(inv.createdAt).toBe(inv.sentAt);

    const mails = mailsTo(address);
    expect(mails).toHaveLength(1);
    const mail = mails[0] as (typeof mails)[number];
    expect(mail.text).toContain("초대");
    expect(mail.text).toContain("You have been invited");
    const token = lastToken(address);
    expect(token.startsWith(`${owner.tenantId}.`)).toBe(true);
    expect(mail.text).toContain(`${s.server.rt.config.publicUrl}/t/${owner.tenantKey}/invitation?token=`);
    // Only a keyed hash of the token is stored.
    const row = inTenant(owner.tenantId, (db) => db.select().from(invitations).where(eq(invitations.id, inv.id)).get());
    expect(JSON.stringify(row)).not.toContain(token.split(".")[1]);
  });

  test("invites with a given role", async () => {
    await s.call("POST", "/api/v1/roles", { json: { key: "tutor", name: "Tutor" }, token: owner.token });
    const inv = await inviteOne(email(), owner, "tutor");
    expect(inv.role).toEqual({ key: "tutor", name: "Tutor" });
  });

  test("reports members and already invited addresses per item, repeated addresses included", async () => {
    const fresh = email();
    const pending = email();
    await inviteOne(pending);
    const res = await invite({ emails: [owner.email.toUpperCase(), pending, fresh, fresh.toUpperCase()] });
    expect(res.status).toBe(201);
    expect(res.body.invited.map((i: any) => i.email)).toEqual([fresh]);
    expect(res.body.failed).toEqual([
      { email: owner.email.toUpperCase(), reason: "member" },
      { email: pending, reason: "invited" },
      { email: fresh.toUpperCase(), reason: "invited" },
    ]);
  });

  test("answers 201 when every address fails", async () => {
    const res = await invite({ emails: [owner.email] });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ invited: [], failed: [{ email: owner.email, reason: "member" }] });
  });

  test("an expired or cancelled invitation does not block a new one", async () => {
    const a = email();
    const first = await inviteOne(a);
    age(owner.tenantId, first.id, { expiresAt: Date.now() - 1 });
    const second = await inviteOne(a);
    expect(second.id).not.toBe(first.id);
    await s.call("POST", "/api/v1/invitations/bulk-cancel", { json: { ids: [second.id] }, token: owner.token });
    expect((await inviteOne(a)).status).toBe("pending");
  });

  test("accepts 500 addresses", async () => {
    const emails = Array.from({ length: 500 }, (_, i) => `bulk-${i}-${seq}@example.com`);
    const res = await invite({ emails }, inviter.token);
    expect(res.status).toBe(201);
    expect(res.body.invited).toHaveLength(500);
  });

  test.each([
    [{}, "emails"],
    [{ emails: [] }, "emails"],
    [{ emails: "a@example.com" }, "emails"],
    [{ emails: Array.from({ length: 501 }, (_, i) => `x${i}@example.com`) }, "emails"],
    [{ emails: ["not-an-email"] }, "emails[0]"],
    [{ emails: [".dot@example.com"] }, "emails[0]"],
    [{ emails: ["a..b@example.com"] }, "emails[0]"],
    [{ emails: [`${"a".repeat(250)}@example.com`] }, "emails[0]"],
    [{ emails: ["a@example.com"], roleKey: "" }, "roleKey"],
    [{ emails: ["a@example.com"], roleKey: "no-such-role" }, "roleKey"],
  ])("returns 400 for %#", async (body, field) => {
    const b = expectProblem(await invite(body), 400, "VALIDATION_FAILED");
    expect(b.errors[0].field).toStartWith(field);
  });

  test("a role of another tenant is unknown (400)", async () => {
    await s.call("POST", "/api/v1/roles", { json: { key: "elsewhere", name: "E" }, token: other.token });
    const b = expectProblem(await invite({ emails: [email()], roleKey: "elsewhere" }), 400, "VALIDATION_FAILED");
    expect(b.errors[0].field).toBe("roleKey");
  });

  test("returns 401 without a token", async () => {
    expectProblem(await s.call("POST", "/api/v1/invitations", { json: { emails: [email()] } }), 401, "UNAUTHENTICATED");
  });

  test("returns 403 without member:invite", async () => {
    expectProblem(await invite({ emails: [email()] }, noPerm.token), 403, "FORBIDDEN");
  });
});

describe("GET /api/v1/invitations — listInvitations", () => {
  let t: Tenant;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTenantFixture(s.server);
    for (const name of ["carol", "alice", "dave", "bob", "erin"]) {
      ids[name] = (await inviteOne(`${name}@list.example.com`, t)).id;
      await Bun.sleep(2);
    }
    await s.call("POST", "/api/v1/invitations/bulk-cancel", { json: { ids: [ids.dave] }, token: t.token });
    age(t.tenantId, ids.erin as string, { expiresAt: Date.now() - 1 });
    const token = lastToken("bob@list.example.com");
    expect((await accept(token, goodAccept)).status).toBe(201);
  });

  test("lists newest first by default with page fields", async () => {
    const res = await listInv("", t.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 5, page: 1, pageSize: 20, totalPages: 1 });
    expect(res.body.invitations.map((i: any) => i.email.split("@")[0])).toEqual(["erin", "bob", "dave", "alice", "carol"]);
    const byName = Object.fromEntries(res.body.invitations.map((i: any) => [i.email.split("@")[0], i]));
    expect(byName.erin.status).toBe("expired");
    expect(byName.dave.status).toBe("cancelled");
    expect(byName.bob.status).toBe("accepted");
    expect(byName.bob.acceptedAt).not.toBeNull();
    expect(byName.alice.status).toBe("pending");
  });

  test.each([
    ["pending", ["alice", "carol"]],
    ["accepted", ["bob"]],
    ["cancelled", ["dave"]],
    ["expired", ["erin"]],
  ])("filters by status %s", async (status, names) => {
    const res = await listInv(`?status=${status}&sortBy=email&sortDir=asc`, t.token);
    expect(res.body.invitations.map((i: any) => i.email.split("@")[0])).toEqual(names);
    expect(res.body.total).toBe(names.length);
  });

  test("sorts by email both ways and by createdAt ascending", async () => {
    const names = async (qs: string) => (await listInv(qs, t.token)).body.invitations.map((i: any) => i.email.split("@")[0]);
    expect(await names("?sortBy=email")).toEqual(["erin", "dave", "carol", "bob", "alice"]);
    expect(await names("?sortBy=email&sortDir=asc")).toEqual(["alice", "bob", "carol", "dave", "erin"]);
    expect(await names("?sortBy=createdAt&sortDir=asc")).toEqual(["carol", "alice", "dave", "bob", "erin"]);
  });

  test("searches by case-insensitive e-mail substring", async () => {
    const res = await listInv("?search=AR", t.token);
    expect(res.body.invitations.map((i: any) => i.email)).toEqual(["carol@list.example.com"]);
    expect((await listInv("?search=zzz", t.token)).body).toMatchObject({ invitations: [], total: 0, totalPages: 0 });
  });

  test("pages; a page past the end is empty with the real totals", async () => {
    const p2 = await listInv("?pageSize=2&page=2&sortBy=email&sortDir=asc", t.token);
    expect(p2.body).toMatchObject({ total: 5, page: 2, pageSize: 2, totalPages: 3 });
    expect(p2.body.invitations.map((i: any) => i.email.split("@")[0])).toEqual(["carol", "dave"]);
    const past = await listInv("?pageSize=2&page=9", t.token);
    expect(past.body).toMatchObject({ invitations: [], total: 5, page: 9, totalPages: 3 });
  });

  test("returns 400 UNKNOWN_SORT_FIELD for an unknown sortBy", async () => {
    const b = expectProblem(await listInv("?sortBy=role", t.token), 400, "UNKNOWN_SORT_FIELD");
    expect(b.message).toBe("unknown sort field");
    expect(b.errors[0]).toMatchObject({ in: "query", field: "sortBy" });
  });

  // Elysia reports numeric query bounds without the field name (platform issue): status and code only.
  test.each([["?page=0"], ["?pageSize=0"], ["?pageSize=101"], ["?page=x"]])("returns 400 for %s", async (qs) => {
    expectProblem(await listInv(qs, t.token), 400, "VALIDATION_FAILED");
  });

  test.each([
    ["?status=open", "status"],
    ["?search=", "search"],
    [`?search=${"s".repeat(256)}`, "search"],
    ["?sortDir=up", "sortDir"],
  ])("returns 400 for %s", async (qs, field) => {
    const b = expectProblem(await listInv(qs, t.token), 400, "VALIDATION_FAILED");
    expect(b.errors[0]).toMatchObject({ in: "query", field });
  });

  test("shows only the caller's tenant", async () => {
    const res = await listInv("?search=list.example.com");
    expect(res.body.total).toBe(0);
  });

  test("returns 401 without a token", async () => {
    expectProblem(await s.call("GET", "/api/v1/invitations"), 401, "UNAUTHENTICATED");
  });

  test("returns 403 without member:invite", async () => {
    expectProblem(await listInv("", noPerm.token), 403, "FORBIDDEN");
  });
});

describe("POST /api/v1/invitations/check-emails — checkInvitationEmails", () => {
  const check = (body: unknown, token = owner.token) => s.call("POST", "/api/v1/invitations/check-emails", { json: body, token });

  test("answers enable, member or invited per address, in order", async () => {
    const invited = email();
    await inviteOne(invited);
    const expired = email();
    age(owner.tenantId, (await inviteOne(expired)).id, { expiresAt: Date.now() - 1 });
    const free = email();
    const res = await check({ emails: [free, owner.email.toUpperCase(), invited, expired] });
    expect(res.status).toBe(200);
    expect(res.body.results).toEqual([
      { email: free, status: "enable" },
      { email: owner.email.toUpperCase(), status: "member" },
      { email: invited, status: "invited" },
      { email: expired, status: "enable" },
    ]);
  });

  test("another tenant's members and invitations do not count", async () => {
    const theirs = email();
    await inviteOne(theirs, other);
    const res = await check({ emails: [other.email, theirs] });
    expect(res.body.results.map((r: any) => r.status)).toEqual(["enable", "enable"]);
  });

  test.each([
    [{}, "emails"],
    [{ emails: [] }, "emails"],
    [{ emails: Array.from({ length: 501 }, (_, i) => `c${i}@example.com`) }, "emails"],
    [{ emails: ["bad"] }, "emails[0]"],
  ])("returns 400 for %#", async (body, field) => {
    const b = expectProblem(await check(body), 400, "VALIDATION_FAILED");
    expect(b.errors[0].field).toBe(field);
  });

  test("returns 401 without a token", async () => {
    expectProblem(await s.call("POST", "/api/v1/invitations/check-emails", { json: { emails: [email()] } }), 401, "UNAUTHENTICATED");
  });

  test("returns 403 without member:invite", async () => {
    expectProblem(await check({ emails: [email()] }, noPerm.token), 403, "FORBIDDEN");
  });
});

describe("POST /api/v1/invitations/bulk-resend — bulkResendInvitations", () => {
  const resend = (ids: unknown, token = owner.token) => s.call("POST", "/api/v1/invitations/bulk-resend", { json: { ids }, token });

  test("resends after the cooldown: new mail, refreshed dates, only the new link works", async () => {
    const a = email();
    const inv = await inviteOne(a);
    const oldToken = lastToken(a);
    age(owner.tenantId, inv.id, { sentAt: Date.now() - 2 * DAY, expiresAt: Date.now() + 5 * DAY });
    const before = Date.now();
    const res = await resend([inv.id, inv.id]);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ succeeded: [inv.id], failed: [] });
    expect(mailsTo(a)).toHaveLength(2);
    const listed = (await listInv(`?search=${encodeURIComponent(a)}`)).body.invitations[0];
    expect(Date.parse(listed.sentAt)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(listed.expiresAt) - Date.parse(listed.sentAt)).toBe(7 * DAY);
    expect(listed.createdAt).toBe(inv.createdAt);
    expectProblem(await accept(oldToken, goodAccept), 404, "NOT_FOUND");
    expect((await accept(lastToken(a), goodAccept)).status).toBe(201);
  });

  test("reports cooldown, not-found and not-pending per id", async () => {
    const fresh = await inviteOne(email());
    const cancelled = await inviteOne(email());
    await s.call("POST", "/api/v1/invitations/bulk-cancel", { json: { ids: [cancelled.id] }, token: owner.token });
    const expired = await inviteOne(email());
    age(owner.tenantId, expired.id, { sentAt: Date.now() - 8 * DAY, expiresAt: Date.now() - DAY });
    const theirs = await inviteOne(email(), other);
    pastCooldown(other.tenantId, theirs.id);
    const ok = await inviteOne(email());
    pastCooldown(owner.tenantId, ok.id);
    const res = await resend([fresh.id, "nope", theirs.id, cancelled.id, expired.id, ok.id]);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      succeeded: [ok.id],
      failed: [
        { id: fresh.id, reason: "cooldown" },
        { id: "nope", reason: "not-found" },
        { id: theirs.id, reason: "not-found" },
        { id: cancelled.id, reason: "not-pending" },
        { id: expired.id, reason: "not-pending" },
      ],
    });
    // The one just resent is in its cooldown again.
    expect((await resend([ok.id])).body.failed).toEqual([{ id: ok.id, reason: "cooldown" }]);
  });

  test.each([
    [{}, "ids"],
    [{ ids: [] }, "ids"],
    [{ ids: [""] }, "ids[0]"],
    [{ ids: Array.from({ length: 501 }, (_, i) => `id${i}`) }, "ids"],
  ])("returns 400 for %#", async (body, field) => {
    const b = expectProblem(
      await s.call("POST", "/api/v1/invitations/bulk-resend", { json: body, token: owner.token }),
      400,
      "VALIDATION_FAILED",
    );
    expect(b.errors[0].field).toBe(field);
  });

  test("accepts 500 ids", async () => {
    const res = await resend(Array.from({ length: 500 }, (_, i) => `id${i}`));
    expect(res.body.failed).toHaveLength(500);
  });

  test("returns 401 without a token", async () => {
    expectProblem(await s.call("POST", "/api/v1/invitations/bulk-resend", { json: { ids: ["x"] } }), 401, "UNAUTHENTICATED");
  });

  test("returns 403 without member:invite", async () => {
    expectProblem(await resend(["x"], noPerm.token), 403, "FORBIDDEN");
  });
});

describe("POST /api/v1/invitations/bulk-cancel — bulkCancelInvitations", () => {
  const cancel = (ids: unknown, token = owner.token) => s.call("POST", "/api/v1/invitations/bulk-cancel", { json: { ids }, token });

  test("cancels pending invitations, also within the resend cooldown; the list and accept see it", async () => {
    const a = email();
    const inv = await inviteOne(a);
    const res = await cancel([inv.id]);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ succeeded: [inv.id], failed: [] });
    expect((await listInv(`?search=${encodeURIComponent(a)}`)).body.invitations[0].status).toBe("cancelled");
    expectProblem(await accept(lastToken(a), goodAccept), 409, "INVALID_STATE");
  });

  test("reports not-found and not-pending per id", async () => {
    const cancelled = await inviteOne(email());
    await cancel([cancelled.id]);
    const expired = await inviteOne(email());
    age(owner.tenantId, expired.id, { expiresAt: Date.now() - 1 });
    const theirs = await inviteOne(email(), other);
    const ok = await inviteOne(email());
    const res = await cancel([cancelled.id, "nope", theirs.id, expired.id, ok.id]);
    expect(res.body).toEqual({
      succeeded: [ok.id],
      failed: [
        { id: cancelled.id, reason: "not-pending" },
        { id: "nope", reason: "not-found" },
        { id: theirs.id, reason: "not-found" },
        { id: expired.id, reason: "not-pending" },
      ],
    });
    const theirsListed = (await listInv(`?search=${encodeURIComponent(theirs.email)}`, other.token)).body.invitations[0];
    expect(theirsListed.status).toBe("pending");
  });

  test("an overlong id is a per-item not-found (bulk-cancel and bulk-resend), and 404 in the resend path", async () => {
    const ok = await inviteOne(email());
    const long = "x".repeat(101);
    const res = await cancel([long, ok.id]);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ succeeded: [ok.id], failed: [{ id: long, reason: "not-found" }] });
    const resent = await s.call("POST", "/api/v1/invitations/bulk-resend", { json: { ids: [long] }, token: owner.token });
    expect(resent.status).toBe(200);
    expect(resent.body).toEqual({ succeeded: [], failed: [{ id: long, reason: "not-found" }] });
    expectProblem(await s.call("POST", `/api/v1/invitations/${long}/resend`, { token: owner.token }), 404, "NOT_FOUND");
  });

  test.each([
    [{}, "ids"],
    [{ ids: [] }, "ids"],
    [{ ids: [""] }, "ids[0]"],
    [{ ids: Array.from({ length: 501 }, (_, i) => `id${i}`) }, "ids"],
  ])("returns 400 for %#", async (body, field) => {
    const b = expectProblem(
      await s.call("POST", "/api/v1/invitations/bulk-cancel", { json: body, token: owner.token }),
      400,
      "VALIDATION_FAILED",
    );
    expect(b.errors[0].field).toBe(field);
  });

  test("returns 401 without a token", async () => {
    expectProblem(await s.call("POST", "/api/v1/invitations/bulk-cancel", { json: { ids: ["x"] } }), 401, "UNAUTHENTICATED");
  });

  test("returns 403 without member:invite", async () => {
    expectProblem(await cancel(["x"], noPerm.token), 403, "FORBIDDEN");
  });
});

describe("POST /api/v1/invitations/{invitationId}/resend — resendInvitation", () => {
  const resendOne = (id: string, token = owner.token) => s.call("POST", `/api/v1/invitations/${id}/resend`, { token });

  test("resends after the cooldown and returns the refreshed invitation", async () => {
    const a = email();
    const inv = await inviteOne(a);
    pastCooldown(owner.tenantId, inv.id);
    const before = Date.now();
    const res = await resendOne(inv.id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: inv.id, email: a, status: "pending", role: inv.role, createdAt: inv.createdAt });
    expect(Date.parse(res.body.sentAt)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(res.body.expiresAt) - Date.parse(res.body.sentAt)).toBe(7 * DAY);
    expect(mailsTo(a)).toHaveLength(2);
  });

  test("returns 429 RESEND_TOO_SOON with Retry-After inside the cooldown", async () => {
    const inv = await inviteOne(email());
    age(owner.tenantId, inv.id, { sentAt: Date.now() - 30_000 });
    const res = await resendOne(inv.id);
    expectProblem(res, 429, "RESEND_TOO_SOON");
    const retry = Number(res.headers.get("retry-after"));
    expect(retry).toBeGreaterThanOrEqual(29);
    expect(retry).toBeLessThanOrEqual(31);
  });

  test("returns 409 INVALID_STATE for a cancelled, expired or accepted invitation", async () => {
    const cancelled = await inviteOne(email());
    await s.call("POST", "/api/v1/invitations/bulk-cancel", { json: { ids: [cancelled.id] }, token: owner.token });
    expectProblem(await resendOne(cancelled.id), 409, "INVALID_STATE");
    const expired = await inviteOne(email());
    age(owner.tenantId, expired.id, { sentAt: Date.now() - 8 * DAY, expiresAt: Date.now() - DAY });
    expectProblem(await resendOne(expired.id), 409, "INVALID_STATE");
    const a = email();
    const accepted = await inviteOne(a);
    await accept(lastToken(a), goodAccept);
    pastCooldown(owner.tenantId, accepted.id);
    expectProblem(await resendOne(accepted.id), 409, "INVALID_STATE");
  });

  test("returns 404 for an unknown id and for an invitation of another tenant", async () => {
    expectProblem(await resendOne("nope"), 404, "NOT_FOUND");
    const theirs = await inviteOne(email(), other);
    pastCooldown(other.tenantId, theirs.id);
    expectProblem(await resendOne(theirs.id), 404, "NOT_FOUND");
  });

  test("returns 401 without a token", async () => {
    expectProblem(await s.call("POST", "/api/v1/invitations/x/resend"), 401, "UNAUTHENTICATED");
  });

  test("returns 403 without member:invite", async () => {
    expectProblem(await resendOne("x", noPerm.token), 403, "FORBIDDEN");
  });
});

describe("POST /api/v1/invitations — role assignment needs member:manage-role", () => {
  test("an inviter with member:invite alone may invite as member but not with another role (403)", async () => {
    await s.call("POST", "/api/v1/roles", { json: { key: "deputy", name: "Deputy", permissions: ["member:manage"] }, token: owner.token });
    expectProblem(await invite({ emails: [email("Escalate")], roleKey: "owner" }, inviter.token), 403, "FORBIDDEN");
    expectProblem(await invite({ emails: [email("Escalate2")], roleKey: "deputy" }, inviter.token), 403, "FORBIDDEN");
    expect((await invite({ emails: [email("Plain")], roleKey: "member" }, inviter.token)).status).toBe(201);
    const manager = await createMemberFixture(s.server, owner, { permissions: ["member:invite", "member:manage-role", "member:manage"] });
    expect((await invite({ emails: [email("Deputy")], roleKey: "deputy" }, manager.token)).status).toBe(201);
  });

  test("a role carrying a permission the inviter does not hold is refused (403), even with member:manage-role", async () => {
    const manager = await createMemberFixture(s.server, owner, { permissions: ["member:invite", "member:manage-role"] });
    const a = email("OwnerEscalate");
    expectProblem(await invite({ emails: [a], roleKey: "owner" }, manager.token), 403, "FORBIDDEN");
    await s.call("POST", "/api/v1/roles", { json: { key: "auditor", name: "Auditor", permissions: ["role:read"] }, token: owner.token });
    expectProblem(await invite({ emails: [email("Auditor")], roleKey: "auditor" }, manager.token), 403, "FORBIDDEN");
    // nothing was sent, so nothing can be accepted
    expect(inTenant(owner.tenantId, (db) => db.select().from(invitations).where(eq(invitations.email, a.toLowerCase())).all())).toEqual([]);
    // a grant of role:read makes the role assignable
    const g = await s.call("POST", "/api/v1/permission-grants/role:read/subjects", {
      json: { subjectType: "MEMBER", subjectId: manager.memberId },
      token: owner.token,
    });
    expect(g.status).toBe(200);
    expect((await invite({ emails: [email("Auditor")], roleKey: "auditor" }, manager.token)).status).toBe(201);
  });
});

describe("POST /api/v1/public/invitations/{token}/accept — acceptInvitation", () => {
  test("end to end: invite, read the mail, accept; the member exists with the invited role", async () => {
    await s.call("POST", "/api/v1/roles", {
      json: { key: "assistant", name: "Assistant", permissions: ["member:read"] },
      token: owner.token,
    });
    const a = email("Accept");
    const inv = await inviteOne(a, owner, "assistant");
    const res = await accept(lastToken(a), { displayName: "Kim Min-su (TA)", password: "Str0ng-pass", userId: "kim_ta-1" });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ tenantKey: owner.tenantKey, identifier: "kim_ta-1" });

    const member = inTenant(owner.tenantId, (db) =>
      db
        .select({ m: members, roleKey: roles.key })
        .from(members)
        .innerJoin(roles, eq(roles.id, members.roleId))
        .where(eq(members.email, a.toLowerCase()))
        .get(),
    );
    expect(member).toMatchObject({
      roleKey: "assistant",
      m: { displayName: "Kim Min-su (TA)", userId: "kim_ta-1", isActive: true, isIssuedAccount: false },
    });
    expect(await verifyPassword("Str0ng-pass", member.m.passwordHash)).toBe(true);
    expect(directoryOf(s.server.rt.platform.db, a).map((d) => d.tenantId)).toEqual([owner.tenantId]);

    const listed = (await listInv(`?search=${encodeURIComponent(a)}`)).body.invitations[0];
    expect(listed).toMatchObject({ id: inv.id, status: "accepted" });
    expect(listed.acceptedAt).not.toBeNull();
    const check = await s.call("POST", "/api/v1/invitations/check-emails", { json: { emails: [a] }, token: owner.token });
    expect(check.body.results[0].status).toBe("member");
    // Used: a second accept is refused.
    expectProblem(await accept(lastToken(a), { ...goodAccept, userId: "other-id" }), 409, "INVALID_STATE");
  });

  test("without userId the identifier is the e-mail", async () => {
    const a = email();
    await inviteOne(a);
    const res = await accept(lastToken(a), goodAccept);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ tenantKey: owner.tenantKey, identifier: a });
  });

  test("returns 409 INVALID_STATE for an expired or cancelled invitation", async () => {
    const a = email();
    const inv = await inviteOne(a);
    age(owner.tenantId, inv.id, { expiresAt: Date.now() - 1 });
    expectProblem(await accept(lastToken(a), goodAccept), 409, "INVALID_STATE");
  });

  test("returns 409 ALREADY_EXISTS when the e-mail became a member meanwhile, or the userId is taken", async () => {
    const a = email();
    await inviteOne(a);
    await createMemberFixture(s.server, owner, { email: a.toLowerCase(), userId: "taken-id" });
    expectProblem(await accept(lastToken(a), goodAccept), 409, "ALREADY_EXISTS");
    const b = email();
    await inviteOne(b);
    expectProblem(await accept(lastToken(b), { ...goodAccept, userId: "TAKEN-id" }), 409, "ALREADY_EXISTS");
    // Nothing was written: the invitation is still pending and can be accepted with another userId.
    expect((await accept(lastToken(b), { ...goodAccept, userId: "free-id" })).status).toBe(201);
  });

  test("returns 404 for an unknown token", async () => {
    const a = email();
    await inviteOne(a);
    const real = lastToken(a);
    expectProblem(await accept("garbage", goodAccept), 404, "NOT_FOUND");
    expectProblem(await accept(`${owner.tenantId}.${"x".repeat(43)}`, goodAccept), 404, "NOT_FOUND");
    expectProblem(await accept(`${crypto.randomUUID()}.${real.split(".")[1]}`, goodAccept), 404, "NOT_FOUND");
    // Another tenant's id with this tenant's secret part.
    expectProblem(await accept(`${other.tenantId}.${real.split(".")[1]}`, goodAccept), 404, "NOT_FOUND");
  });

  test.each([
    [{ password: "Str0ng-pass" }, "displayName"],
    [{ displayName: "", password: "Str0ng-pass" }, "displayName"],
    [{ displayName: "x".repeat(256), password: "Str0ng-pass" }, "displayName"],
    [{ displayName: "Bad <name>", password: "Str0ng-pass" }, "displayName"],
    [{ displayName: "Ok" }, "password"],
    [{ displayName: "Ok", password: "Sh0rt!" }, "password"],
    [{ displayName: "Ok", password: "onlyletters" }, "password"],
    [{ displayName: "Ok", password: `A1${"a".repeat(254)}` }, "password"],
    [{ displayName: "Ok", password: "Str0ng pass" }, "password"],
    [{ ...goodAccept, userId: "" }, "userId"],
    [{ ...goodAccept, userId: "u".repeat(256) }, "userId"],
    [{ ...goodAccept, userId: "has space" }, "userId"],
    [{ ...goodAccept, userId: "a@b" }, "userId"],
  ])("returns 400 for %#", async (body, field) => {
    const a = email();
    await inviteOne(a);
    const b = expectProblem(await accept(lastToken(a), body), 400, "VALIDATION_FAILED");
    expect(b.errors[0].field).toBe(field);
    expect(JSON.stringify(b)).not.toContain("Str0ng");
  });

  test("accepts the bounds: displayName and userId of 255, password of 255", async () => {
    const a = email();
    await inviteOne(a);
    const res = await accept(lastToken(a), { displayName: "d".repeat(255), password: `A1${"a".repeat(253)}`, userId: "u".repeat(255) });
    expect(res.status).toBe(201);
  });

  test("400 for the body comes before 404 for the token", async () => {
    expectProblem(await accept("garbage", { displayName: "" }), 400, "VALIDATION_FAILED");
  });
});
