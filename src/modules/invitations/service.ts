import { and, asc, count, desc, eq, gt, inArray, lte, type SQL, sql } from "drizzle-orm";
import type { Static } from "elysia";
import { requireRoleAssignable } from "../../platform/access";
import type { Actor } from "../../platform/auth/actor";
import { mac, nodeCrypto } from "../../platform/crypto";
import { type Db, write } from "../../platform/db/types";
import { badRequest, conflict, invalid, notFound, tooMany } from "../../platform/http/errors";
import { iso, isoRequired, pageOf } from "../../platform/http/schemas";
import type { Mail } from "../../platform/mail/mailer";
import type { Runtime } from "../../platform/runtime";
import { members } from "../../schema/members";
import { roles } from "../../schema/roles";
import { roleByKey } from "../roles/builtin";
import { readSettings } from "../tenant/service";
import { acceptLink, invitationMail, sendAll } from "./mail";
import type { BulkIdsBody, CheckEmailsBody, CreateInvitationsBody, INVITATION_STATUSES, Invitation, ListInvitationsQuery } from "./model";
import { invitations } from "./tables";

export const INVITATION_VALID_MS = 7 * 24 * 60 * 60 * 1000;

/** A new pending invitation of `role` for `email`: stores the token's hash, valid INVITATION_VALID_MS from `now`. */
function pendingInvitation(
  rt: Runtime,
  role: { id: string; key: string; name: string },
  email: string,
  token: string,
  now: number,
): InvitationRow {
  return {
    id: Bun.randomUUIDv7(),
    email,
    roleId: role.id,
    roleKey: role.key,
    roleName: role.name,
    status: "pending",
    tokenHash: tokenHash(rt, token),
    sentAt: now,
    expiresAt: now + INVITATION_VALID_MS,
    acceptedAt: null,
    memberId: null,
    createdAt: now,
    updatedAt: now,
  };
}
export const RESEND_COOLDOWN_MS = 60 * 1000;

type InvitationRow = typeof invitations.$inferSelect;
type Status = (typeof INVITATION_STATUSES)[number];

/** `<tenantId>.<random>`: the public accept route finds the tenant from the token itself. */
const newToken = (tenantId: string) => `${tenantId}.${nodeCrypto().randomBytes(32).toString("base64url")}`;
export const tokenHash = (rt: Runtime, token: string) => mac(rt.secret, "invitation", token);

export const statusOf = (row: InvitationRow, now: number): Status =>
  row.status === "pending" && row.expiresAt <= now ? "expired" : row.status;
const isLive = (row: InvitationRow, now: number) => statusOf(row, now) === "pending";

/** The role ref: the live role (renames show), else the snapshot taken when it was sent. */
const selection = { inv: invitations, roleKey: roles.key, roleName: roles.name };
type Joined = { inv: InvitationRow; roleKey: string | null; roleName: string | null };

function toInvitation(j: Joined, now: number): Static<typeof Invitation> {
  const row = j.inv;
  return {
    id: row.id,
    email: row.email,
    role: { key: j.roleKey ?? row.roleKey, name: j.roleName ?? row.roleName },
    status: statusOf(row, now),
    sentAt: isoRequired(row.sentAt),
    expiresAt: isoRequired(row.expiresAt),
    acceptedAt: iso(row.acceptedAt),
    createdAt: isoRequired(row.createdAt),
  };
}

function joinedByIds(db: Db, ids: string[]): Joined[] {
  if (ids.length === 0) return [];
  return db.select(selection).from(invitations).leftJoin(roles, eq(roles.id, invitations.roleId)).where(inArray(invitations.id, ids)).all();
}

/** Lowercased e-mails of `emails` that are members, and that have a live invitation. */
function emailStates(db: Db, emails: string[], now: number) {
  const memberEmails = new Set(
    db
      .select({ email: members.email })
      .from(members)
      .where(inArray(members.email, emails))
      .all()
      .map((r) => r.email as string),
  );
  const invitedEmails = new Set(
    db
      .select({ email: invitations.email })
      .from(invitations)
      .where(and(inArray(invitations.email, emails), eq(invitations.status, "pending"), gt(invitations.expiresAt, now)))
      .all()
      .map((r) => r.email),
  );
  return { memberEmails, invitedEmails };
}

const tenantOf = (actor: Actor) => ({ key: actor.tenantKey, name: readSettings(actor.db).name });

export async function createInvitations(rt: Runtime, actor: Actor, input: Static<typeof CreateInvitationsBody>, now = Date.now()) {
  const tenant = tenantOf(actor);
  const mails: Mail[] = [];
  const result = write(actor.db, (tx) => {
    // Inside the transaction: deleteRole checks for pending invitations inside its own.
    const role = roleByKey(tx, input.roleKey ?? "member");
    if (!role) throw invalid("roleKey", "does not name a role of this tenant");
    requireRoleAssignable(actor, role);
    const lowered = input.emails.map((e) => e.toLowerCase());
    const { memberEmails, invitedEmails } = emailStates(tx, [...new Set(lowered)], now);
    const failed: { email: string; reason: "member" | "invited" }[] = [];
    const rows: InvitationRow[] = [];
    for (const [i, email] of input.emails.entries()) {
      const lower = lowered[i] as string;
      if (memberEmails.has(lower)) {
        failed.push({ email, reason: "member" });
        continue;
      }
      // A repeated address meets the invitation its first occurrence made.
      if (invitedEmails.has(lower)) {
        failed.push({ email, reason: "invited" });
        continue;
      }
      invitedEmails.add(lower);
      const token = newToken(actor.tenantId);
      const row = pendingInvitation(rt, role, lower, token, now);
      rows.push(row);
      mails.push(invitationMail(rt, tenant, lower, token, row.expiresAt));
    }
    if (rows.length) tx.insert(invitations).values(rows).run();
    return { invited: rows.map((inv) => toInvitation({ inv, roleKey: role.key, roleName: role.name }, now)), failed };
  });
  await sendAll(rt, mails);
  return result;
}

const SORTS = { email: invitations.email, createdAt: invitations.createdAt } as const;

export function listInvitations(db: Db, query: Static<typeof ListInvitationsQuery>, now = Date.now()) {
  const sortBy = query.sortBy ?? "createdAt";
  if (!(sortBy in SORTS)) {
    throw badRequest("UNKNOWN_SORT_FIELD", "unknown sort field", [{ in: "query", field: "sortBy", message: "unknown sort field" }]);
  }
  const conds: SQL[] = [];
  if (query.status === "pending") conds.push(eq(invitations.status, "pending"), gt(invitations.expiresAt, now));
  else if (query.status === "expired") conds.push(eq(invitations.status, "pending"), lte(invitations.expiresAt, now));
  else if (query.status) conds.push(eq(invitations.status, query.status));
  if (query.search) conds.push(sql`instr(${invitations.email}, ${query.search.toLowerCase()}) > 0`);
  const where = conds.length ? and(...conds) : undefined;
  const dir = query.sortDir === "asc" ? asc : desc;
  const page = pageOf(db.select({ n: count() }).from(invitations).where(where).get()?.n ?? 0, query.page, query.pageSize);
  const rows = db
    .select(selection)
    .from(invitations)
    .leftJoin(roles, eq(roles.id, invitations.roleId))
    .where(where)
    .orderBy(dir(SORTS[sortBy as keyof typeof SORTS]), dir(invitations.id))
    .limit(page.pageSize)
    .offset(page.offset)
    .all();
  const { offset: _, ...fields } = page;
  return { invitations: rows.map((r) => toInvitation(r, now)), ...fields };
}

export function checkInvitationEmails(db: Db, input: Static<typeof CheckEmailsBody>, now = Date.now()) {
  const lowered = input.emails.map((e) => e.toLowerCase());
  const { memberEmails, invitedEmails } = emailStates(db, [...new Set(lowered)], now);
  return {
    results: input.emails.map((email, i) => {
      const lower = lowered[i] as string;
      const status = memberEmails.has(lower) ? "member" : invitedEmails.has(lower) ? "invited" : "enable";
      return { email, status: status as "member" | "invited" | "enable" };
    }),
  };
}

type BulkFailure = { id: string; reason: "cooldown" | "not-found" | "not-pending" };

/** Gives the invitation a new token and a fresh 7 days; returns the e-mail to send. */
function refresh(rt: Runtime, tx: Db, tenantId: string, tenant: { key: string; name: string }, row: InvitationRow, now: number) {
  const token = newToken(tenantId);
  const expiresAt = now + INVITATION_VALID_MS;
  tx.update(invitations)
    .set({ tokenHash: tokenHash(rt, token), sentAt: now, expiresAt, updatedAt: now })
    .where(eq(invitations.id, row.id))
    .run();
  return invitationMail(rt, tenant, row.email, token, expiresAt);
}

export async function bulkResendInvitations(rt: Runtime, actor: Actor, input: Static<typeof BulkIdsBody>, now = Date.now()) {
  const tenant = tenantOf(actor);
  const mails: Mail[] = [];
  const result = write(actor.db, (tx) => {
    const ids = [...new Set(input.ids)];
    const byId = new Map(joinedByIds(tx, ids).map((j) => [j.inv.id, j.inv]));
    const succeeded: string[] = [];
    const failed: BulkFailure[] = [];
    for (const id of ids) {
      const row = byId.get(id);
      if (!row) failed.push({ id, reason: "not-found" });
      else if (!isLive(row, now)) failed.push({ id, reason: "not-pending" });
      else if (now - row.sentAt < RESEND_COOLDOWN_MS) failed.push({ id, reason: "cooldown" });
      else {
        mails.push(refresh(rt, tx, actor.tenantId, tenant, row, now));
        succeeded.push(id);
      }
    }
    return { succeeded, failed };
  });
  await sendAll(rt, mails);
  return result;
}

export function bulkCancelInvitations(db: Db, input: Static<typeof BulkIdsBody>, now = Date.now()) {
  return write(db, (tx) => {
    const ids = [...new Set(input.ids)];
    const byId = new Map(joinedByIds(tx, ids).map((j) => [j.inv.id, j.inv]));
    const succeeded: string[] = [];
    const failed: BulkFailure[] = [];
    for (const id of ids) {
      const row = byId.get(id);
      if (!row) failed.push({ id, reason: "not-found" });
      else if (!isLive(row, now)) failed.push({ id, reason: "not-pending" });
      else succeeded.push(id);
    }
    if (succeeded.length) {
      tx.update(invitations).set({ status: "cancelled", updatedAt: now }).where(inArray(invitations.id, succeeded)).run();
    }
    return { succeeded, failed };
  });
}

export async function resendInvitation(rt: Runtime, actor: Actor, id: string, now = Date.now()) {
  const tenant = tenantOf(actor);
  const mail = write(actor.db, (tx) => {
    const row = joinedByIds(tx, [id])[0]?.inv;
    if (!row) throw notFound();
    if (!isLive(row, now)) throw conflict("INVALID_STATE", "Only a pending invitation can be resent.");
    const wait = row.sentAt + RESEND_COOLDOWN_MS - now;
    if (wait > 0) throw tooMany("RESEND_TOO_SOON", "The invitation was sent less than a minute ago.", wait / 1000);
    return refresh(rt, tx, actor.tenantId, tenant, row, now);
  });
  await sendAll(rt, [mail]);
  const joined = joinedByIds(actor.db, [id])[0] as Joined;
  return toInvitation(joined, now);
}

/**
 * The first owner of a tenant made on the command line (`tenant create`): an invitation with the
 * `owner` role, so the owner sets their own password on the accept page. Returns the mail sent and
 * its link (docs/rules/trust.md#who-may-create-a-tenant).
 */
export async function inviteFirstOwner(rt: Runtime, tenant: { id: string; key: string; name: string }, email: string, now = Date.now()) {
  const token = newToken(tenant.id);
  const expiresAt = now + INVITATION_VALID_MS;
  const lower = email.toLowerCase();
  rt.tenants.use(tenant.id, (h) =>
    write(h.db, (tx) => {
      const role = roleByKey(tx, "owner");
      if (!role) throw new Error("owner role missing");
      tx.insert(invitations)
        .values(pendingInvitation(rt, role, lower, token, now))
        .run();
    }),
  );
  const mail = invitationMail(rt, tenant, lower, token, expiresAt);
  await rt.mailer.send(mail);
  return { link: acceptLink(rt, tenant.key, token), expiresAt };
}
