import { and, eq, ne } from "drizzle-orm";
import type { Static } from "elysia";
import { requireRoleAssignable } from "../../platform/access";
import type { Actor } from "../../platform/auth/actor";
import { hashGeneratedPassword, hashPassword } from "../../platform/auth/password";
import { indexMember, unindexMember } from "../../platform/db/registry";
import { type Db, write } from "../../platform/db/types";
import { conflict, forbidden, invalid, invalidMany, notFound } from "../../platform/http/errors";
import type { Runtime } from "../../platform/runtime";
import { memberFieldValues } from "../../schema/fields";
import { members } from "../../schema/members";
import { roles } from "../../schema/roles";
import { revokeMemberSessions } from "../auth/session";
import { typedFieldValues } from "../fields/values";
import { grantedCodes } from "../grants/effective";
import { forgetGrantSubject } from "../grants/subjects";
import { roleByKey } from "../roles/builtin";
import { holdsASpace } from "../spaces/members";
import { forgetConsentsOf } from "../terms/consent";
import { insertMember } from "./create";
import { loadMember, toFieldValue } from "./list";
import type { CreateMemberBody, SetFieldValuesBody } from "./model";

const ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";

/** 16 random letters and digits, at least one of each: meets the password rule. */
export function generatePassword(): string {
  for (;;) {
    const bytes = crypto.getRandomValues(new Uint8Array(32));
    let out = "";
    for (const b of bytes) {
      if (b < 232) out += ALPHABET[b % ALPHABET.length]; // 232 = 4 × 58: no modulo bias
      if (out.length === 16) break;
    }
    if (out.length === 16 && /\d/.test(out) && /[A-Za-z]/.test(out)) return out;
  }
}

export const isUnique = (e: unknown) => (e as { code?: string }).code === "SQLITE_CONSTRAINT_UNIQUE";

/**
 * A caller may take over (reset the password of) only a member whose effective permissions (role ∪
 * grants) it holds itself.
 */
export function checkNoEscalation(actor: Actor, targetId: string, rolePermissions: string[]) {
  const held = (p: string) => actor.permissionSet.has(p);
  if (!rolePermissions.every(held) || !grantedCodes(actor.handle.sqlite, targetId).every(held)) throw forbidden();
}

/** 409 when another member (not `except`) already has the userId or e-mail. */
export function existingConflicts(
  actor: Pick<Actor, "db">,
  userId: string | null | undefined,
  email: string | null | undefined,
  except?: string,
) {
  const taken = (column: typeof members.userIdKey | typeof members.email, value: string) =>
    actor.db
      .select({ id: members.id })
      .from(members)
      .where(and(eq(column, value.toLowerCase()), except ? ne(members.id, except) : undefined))
      .get() !== undefined;
  if (userId && taken(members.userIdKey, userId)) throw conflict("ALREADY_EXISTS", "A member with this userId already exists.");
  if (email && taken(members.email, email)) throw conflict("ALREADY_EXISTS", "A member with this e-mail already exists.");
}

type NewMemberInput = Static<typeof CreateMemberBody>;

/**
 * createMember's checks, in its order: a login identity (400), an existing role (400) the caller
 * may hand out (403), no member holding the userId or e-mail yet (409). Returns the role.
 */
export function checkNewMember(actor: Actor, input: NewMemberInput) {
  if (!input.userId && !input.email) {
    throw invalidMany([
      { in: "body", field: "userId", message: "userId or email is required" },
      { in: "body", field: "email", message: "userId or email is required" },
    ]);
  }
  const role = roleByKey(actor.db, input.roleKey ?? "member");
  if (!role) throw invalid("roleKey", "does not name an existing role");
  requireRoleAssignable(actor, role);
  existingConflicts(actor, input.userId, input.email);
  return role;
}

/** The password an issued account starts with: the one sent, else a generated one (hashed lightly, see hashGeneratedPassword). */
export async function issuedPassword(sent: string | undefined) {
  if (sent) return { tempPassword: sent, passwordHash: await hashPassword(sent) };
  const tempPassword = generatePassword();
  return { tempPassword, passwordHash: await hashGeneratedPassword(tempPassword) };
}

/** Inserts a checked issued account (the caller's transaction); a unique clash is the caller's 409. */
export function insertIssued(tx: Db, input: NewMemberInput, roleId: string, passwordHash: string, now: number) {
  return insertMember(
    tx,
    {
      displayName: input.displayName,
      userId: input.userId ?? null,
      email: input.email ?? null,
      roleId,
      passwordHash,
      isIssuedAccount: true,
      mustChangePassword: true,
    },
    now,
  ).id;
}

/** Stores a checked issued account in one transaction, then indexes its e-mail in the platform directory. */
function storeMember(rt: Runtime, actor: Actor, input: NewMemberInput, roleId: string, passwordHash: string, now: number) {
  let id: string;
  try {
    id = write(actor.db, (tx) => insertIssued(tx, input, roleId, passwordHash, now));
  } catch (e) {
    if (isUnique(e)) existingConflicts(actor, input.userId, input.email);
    throw e;
  }
  write(rt.platform.db, (tx) => indexMember(tx, input.email ?? null, actor.tenantId, id));
  return id;
}

/** Issued account: the password is hashed before the write transaction. */
export async function createMember(rt: Runtime, actor: Actor, input: NewMemberInput, now = Date.now()) {
  const role = checkNewMember(actor, input);
  const { tempPassword, passwordHash } = await issuedPassword(input.password);
  const id = storeMember(rt, actor, input, role.id, passwordHash, now);
  return { member: loadMember(actor.handle.sqlite, id), tempPassword };
}

/**
 * Per-id results: not-found, self, owner fail; the rest go. `owner` covers the holder of the
 * builtin owner role and a space's owner or only ADMIN (docs/rules/members.md#deleting-members: a delete that would leave a space
 * nobody can manage is refused, reason `owner`).
 */
export function deleteMembers(rt: Runtime, actor: Actor, userPkIds: string[]) {
  const { deleted, failed, emails } = write(actor.db, (tx) => {
    const out = { deleted: [] as string[], failed: [] as { userPkId: string; reason: string }[], emails: [] as string[] };
    for (const id of new Set(userPkIds)) {
      const row = tx
        .select({ id: members.id, email: members.email, roleKey: roles.key, isBuiltin: roles.isBuiltin })
        .from(members)
        .innerJoin(roles, eq(roles.id, members.roleId))
        .where(eq(members.id, id))
        .get();
      if (!row) out.failed.push({ userPkId: id, reason: "not-found" });
      else if (row.id === actor.memberId) out.failed.push({ userPkId: id, reason: "self" });
      else if (row.isBuiltin && row.roleKey === "owner") out.failed.push({ userPkId: id, reason: "owner" });
      else if (holdsASpace(tx, id)) out.failed.push({ userPkId: id, reason: "owner" });
      else {
        // Grant subjects and term consents have no foreign key (they name groups or members); profiles, field values and memberships cascade.
        forgetGrantSubject(tx, "MEMBER", id);
        // Tenant term consents name the member as subject (no foreign key): they would keep counting.
        forgetConsentsOf(tx, id);
        tx.delete(members).where(eq(members.id, id)).run();
        out.deleted.push(id);
        if (row.email) out.emails.push(row.email);
      }
    }
    return out;
  });
  if (emails.length) {
    write(rt.platform.db, (tx) => {
      for (const email of emails) unindexMember(tx, email, actor.tenantId);
    });
  }
  return { deleted, failed };
}

/** resetMemberPassword: a new (temporary) password; the member's sessions end (the caller's own one stays). */
export async function resetMemberPassword(rt: Runtime, actor: Actor, id: string, password: string | undefined, now = Date.now()) {
  const target = actor.db
    .select({ permissions: roles.permissions })
    .from(members)
    .innerJoin(roles, eq(roles.id, members.roleId))
    .where(eq(members.id, id))
    .get();
  if (!target) throw notFound();
  checkNoEscalation(actor, id, target.permissions);
  const { tempPassword, passwordHash } = await issuedPassword(password);
  write(actor.db, (tx) => {
    const done = tx
      .update(members)
      .set({ passwordHash, mustChangePassword: true, failedLogins: 0, lockedUntil: null, updatedAt: now })
      .where(eq(members.id, id))
      .returning({ id: members.id })
      .get();
    if (!done) throw notFound();
  });
  revokeMemberSessions(rt, actor.tenantId, id, id === actor.memberId ? actor.sessionId : null, now);
  return { tempPassword };
}

type ValueInput = Static<typeof SetFieldValuesBody>["values"][number];
/** PUT: the member's values become exactly the entries sent (an entry with no value clears its field). */
export function setMemberFieldValues(actor: Actor, id: string, values: ValueInput[]) {
  return write(actor.db, (tx) => {
    if (!tx.select({ id: members.id }).from(members).where(eq(members.id, id)).get()) throw notFound();
    const rows = typedFieldValues(tx, "member", values).map((v) => ({ memberId: id, ...v }));
    tx.delete(memberFieldValues).where(eq(memberFieldValues.memberId, id)).run();
    if (rows.length) tx.insert(memberFieldValues).values(rows).run();
    const stored = actor.handle.sqlite
      .query(
        `SELECT v.member_id, v.field_id, v.value_text, v.value_number, v.value_date FROM member_field_values v
         JOIN custom_fields f ON f.id = v.field_id WHERE v.member_id = ? ORDER BY f.position, f.id`,
      )
      .all(id) as Parameters<typeof toFieldValue>[0][];
    return { values: stored.map(toFieldValue) };
  });
}
