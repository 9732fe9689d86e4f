import { and, asc, count, eq, inArray, isNotNull, or, type SQL } from "drizzle-orm";
import type { Static } from "elysia";
import { requirePermissionsHeld } from "../../platform/access";
import type { Actor } from "../../platform/auth/actor";
import { type Db, write } from "../../platform/db/types";
import { invalid, notFound } from "../../platform/http/errors";
import { pageOf } from "../../platform/http/schemas";
import { groupMembers, groups } from "../../schema/groups";
import { members } from "../../schema/members";
import { contains } from "../groups/lookup";
import { PERMISSIONS, type Permission } from "../roles/permissions";
import { isPermission, PERMISSION_TEXT } from "./catalog";
import type { BulkGrantResult, BulkSubjectsBody, GrantQuery, PermissionGrant, SubjectBody } from "./model";
import { grantSubjects, grants } from "./tables";

type SubjectType = "GROUP" | "MEMBER";
type Page = { limit: number; offset: number };

/** `{code}` must be a value of the permission enumeration, else 404. */
function requireCode(code: string): Permission {
  if (!isPermission(code)) throw notFound();
  return code;
}

const allEnabledOf = (db: Db, code: string) =>
  db.select({ allEnabled: grants.allEnabled }).from(grants).where(eq(grants.code, code)).get()?.allEnabled ?? false;

const memberSearch = (search?: string) =>
  search ? or(contains(members.displayName, search), contains(members.userId, search), contains(members.email, search)) : undefined;

/** Group subjects of a grant (grant groups only), by name. */
function subjectGroups(db: Db, code: string, search?: string, page?: Page) {
  const where = and(
    eq(grantSubjects.code, code),
    eq(grantSubjects.subjectType, "GROUP"),
    search ? contains(groups.name, search) : undefined,
  );
  const from = () =>
    db
      .select({ id: groups.id, name: groups.name })
      .from(grantSubjects)
      .innerJoin(groups, and(eq(groups.id, grantSubjects.subjectId), eq(groups.kind, "grant")))
      .where(where)
      .orderBy(asc(groups.name), asc(groups.id));
  return page ? from().limit(page.limit).offset(page.offset).all() : from().all();
}

function countSubjectGroups(db: Db, code: string, search?: string) {
  return (
    db
      .select({ n: count() })
      .from(grantSubjects)
      .innerJoin(groups, and(eq(groups.id, grantSubjects.subjectId), eq(groups.kind, "grant")))
      .where(and(eq(grantSubjects.code, code), eq(grantSubjects.subjectType, "GROUP"), search ? contains(groups.name, search) : undefined))
      .get()?.n ?? 0
  );
}

/** Member subjects of a grant, by display name; `search` matches displayName, userId and e-mail. */
function subjectMembers(db: Db, code: string, search?: string, page?: Page) {
  const from = () =>
    db
      .select({
        id: members.id,
        userId: members.userId,
        displayName: members.displayName,
        pictureUrl: members.pictureUrl,
        externalMemberCode: members.externalMemberCode,
      })
      .from(grantSubjects)
      .innerJoin(members, eq(members.id, grantSubjects.subjectId))
      .where(and(eq(grantSubjects.code, code), eq(grantSubjects.subjectType, "MEMBER"), memberSearch(search)))
      .orderBy(asc(members.displayName), asc(members.id));
  return page ? from().limit(page.limit).offset(page.offset).all() : from().all();
}

function countSubjectMembers(db: Db, code: string, search?: string) {
  return (
    db
      .select({ n: count() })
      .from(grantSubjects)
      .innerJoin(members, eq(members.id, grantSubjects.subjectId))
      .where(and(eq(grantSubjects.code, code), eq(grantSubjects.subjectType, "MEMBER"), memberSearch(search)))
      .get()?.n ?? 0
  );
}

/** The PermissionGrant record: every subject, groups and members each by name. */
function toGrant(db: Db, code: Permission): Static<typeof PermissionGrant> {
  return {
    code,
    description: PERMISSION_TEXT[code].description,
    allEnabled: allEnabledOf(db, code),
    groups: subjectGroups(db, code),
    members: subjectMembers(db, code).map((m) => ({ id: m.id, userId: m.userId, displayName: m.displayName })),
  };
}

/** Ids among `ids` that name a record of the subject type (a grant group, or a member). */
function existingSubjects(db: Db, type: SubjectType, ids: string[]): Set<string> {
  return new Set(subjectsActivity(db, type, ids).keys());
}

/** The subjects that exist, each with whether it is active (groups always are). */
function subjectsActivity(db: Db, type: SubjectType, ids: string[]): Map<string, boolean> {
  const rows =
    type === "GROUP"
      ? db
          .select({ id: groups.id })
          .from(groups)
          .where(and(inArray(groups.id, ids), eq(groups.kind, "grant")))
          .all()
          .map((r) => ({ id: r.id, isActive: true }))
      : db.select({ id: members.id, isActive: members.isActive }).from(members).where(inArray(members.id, ids)).all();
  return new Map(rows.map((r) => [r.id, r.isActive]));
}

const subjectWhere = (code: string, type: SubjectType, ids: string[]) =>
  and(eq(grantSubjects.code, code), eq(grantSubjects.subjectType, type), inArray(grantSubjects.subjectId, ids));

export function getGrant(db: Db, rawCode: string, query: Static<typeof GrantQuery>) {
  const code = requireCode(rawCode);
  const { page = 1, pageSize = 20, search } = query;
  const slice = { limit: pageSize, offset: (page - 1) * pageSize };
  return {
    code,
    label: PERMISSION_TEXT[code].label,
    description: PERMISSION_TEXT[code].description,
    allEnabled: allEnabledOf(db, code),
    // No permission is switched off in this edition (single plan); the flag is kept for clients.
    disabled: false,
    groups: subjectGroups(db, code, search, slice),
    members: subjectMembers(db, code, search, slice),
    groupTotal: countSubjectGroups(db, code, search),
    memberTotal: countSubjectMembers(db, code, search),
    page,
    pageSize,
  };
}

/** Effective holders through this grant: member subjects, members of granted groups, all active members when allEnabled. */
export function listGrantMembers(db: Db, rawCode: string, query: Static<typeof GrantQuery>) {
  const code = requireCode(rawCode);
  const direct = db
    .select({ id: grantSubjects.subjectId })
    .from(grantSubjects)
    .where(and(eq(grantSubjects.code, code), eq(grantSubjects.subjectType, "MEMBER")));
  const viaGroups = db
    .select({ id: groupMembers.memberId })
    .from(groupMembers)
    .innerJoin(grantSubjects, and(eq(grantSubjects.subjectType, "GROUP"), eq(grantSubjects.subjectId, groupMembers.groupId)))
    .where(eq(grantSubjects.code, code));
  const holders: (SQL | undefined)[] = [inArray(members.id, direct), inArray(members.id, viaGroups)];
  if (allEnabledOf(db, code)) holders.push(eq(members.isActive, true));
  const where = and(or(...holders), memberSearch(query.search));
  const total = db.select({ n: count() }).from(members).where(where).get()?.n ?? 0;
  const page = pageOf(total, query.page, query.pageSize);
  const rows = db
    .select({
      id: members.id,
      userId: members.userId,
      displayName: members.displayName,
      email: members.email,
      pictureUrl: members.pictureUrl,
      externalMemberCode: members.externalMemberCode,
      affiliation: members.affiliation,
    })
    .from(members)
    .where(where)
    .orderBy(asc(members.displayName), asc(members.id))
    .limit(page.pageSize)
    .offset(page.offset)
    .all();
  return { members: rows, total: page.total, page: page.page, pageSize: page.pageSize, totalPages: page.totalPages };
}

/**
 * Adds one subject; adding a present subject changes nothing. An unknown subject gets 400; a code
 * the caller does not hold itself gets 403 (nobody hands out a permission it does not hold).
 */
export function addGrantSubject(actor: Actor, rawCode: string, input: Static<typeof SubjectBody>, now = Date.now()) {
  const code = requireCode(rawCode);
  requirePermissionsHeld(actor, [code]);
  return write(actor.db, (tx) => {
    if (!existingSubjects(tx, input.subjectType, [input.subjectId]).has(input.subjectId)) {
      throw invalid("subjectId", input.subjectType === "GROUP" ? "is not a group of this tenant" : "is not a member of this tenant");
    }
    tx.insert(grantSubjects)
      .values({ code, subjectType: input.subjectType, subjectId: input.subjectId, createdAt: now })
      .onConflictDoNothing()
      .run();
    return toGrant(tx, code);
  });
}

/** Removes one subject; a subject that is not granted changes nothing, an unknown record gets 400. */
export function removeGrantSubject(db: Db, rawCode: string, input: Static<typeof SubjectBody>) {
  const code = requireCode(rawCode);
  return write(db, (tx) => {
    const removed = tx
      .delete(grantSubjects)
      .where(subjectWhere(code, input.subjectType, [input.subjectId]))
      .returning()
      .all();
    if (removed.length === 0 && !existingSubjects(tx, input.subjectType, [input.subjectId]).has(input.subjectId)) {
      throw invalid("subjectId", input.subjectType === "GROUP" ? "is not a group of this tenant" : "is not a member of this tenant");
    }
    return toGrant(tx, code);
  });
}

/** Enabling a code for all members needs the caller to hold it (403); disabling does not. */
export function setGrantAllEnabled(actor: Actor, rawCode: string, enabled: boolean) {
  const code = requireCode(rawCode);
  if (enabled) requirePermissionsHeld(actor, [code]);
  return write(actor.db, (tx) => {
    tx.insert(grants)
      .values({ code, allEnabled: enabled })
      .onConflictDoUpdate({ target: grants.code, set: { allEnabled: enabled } })
      .run();
    return toGrant(tx, code);
  });
}

/**
 * Grants each subject; unknown ones are skipped as NOT_FOUND, inactive members as INACTIVE
 * (docs/rules/members.md#deactivation), present (or repeated) ones as ALREADY_GRANTED. A code the caller does not hold itself gets 403.
 */
export function bulkGrant(actor: Actor, rawCode: string, input: Static<typeof BulkSubjectsBody>, now = Date.now()) {
  const code = requireCode(rawCode);
  requirePermissionsHeld(actor, [code]);
  return write(actor.db, (tx): Static<typeof BulkGrantResult> => {
    const ids = input.subjectIds;
    const exists = subjectsActivity(tx, input.subjectType, ids);
    const granted = new Set(
      tx
        .select({ id: grantSubjects.subjectId })
        .from(grantSubjects)
        .where(subjectWhere(code, input.subjectType, ids))
        .all()
        .map((r) => r.id),
    );
    const skipped: Static<typeof BulkGrantResult>["skipped"] = [];
    const fresh: string[] = [];
    for (const id of ids) {
      if (!exists.has(id)) skipped.push({ subjectId: id, reason: "NOT_FOUND" });
      else if (!exists.get(id)) skipped.push({ subjectId: id, reason: "INACTIVE" });
      else if (granted.has(id)) skipped.push({ subjectId: id, reason: "ALREADY_GRANTED" });
      else {
        granted.add(id);
        fresh.push(id);
      }
    }
    if (fresh.length > 0) {
      tx.insert(grantSubjects)
        .values(fresh.map((subjectId) => ({ code, subjectType: input.subjectType, subjectId, createdAt: now })))
        .run();
    }
    return { granted: fresh.length, skipped };
  });
}

/** Removes each listed subject that is granted; `revoked` counts them. */
export function bulkRevoke(db: Db, rawCode: string, input: Static<typeof BulkSubjectsBody>) {
  const code = requireCode(rawCode);
  return write(db, (tx) => {
    const removed = tx
      .delete(grantSubjects)
      .where(subjectWhere(code, input.subjectType, [...new Set(input.subjectIds)]))
      .returning()
      .all();
    return { revoked: removed.length };
  });
}

/** One item per permission value, in enumeration order; subject totals from one grouped query. */
export function listGrants(db: Db) {
  const enabled = new Set(
    db
      .select({ code: grants.code })
      .from(grants)
      .where(eq(grants.allEnabled, true))
      .all()
      .map((r) => r.code),
  );
  const totals = db
    .select({ code: grantSubjects.code, type: grantSubjects.subjectType, n: count() })
    .from(grantSubjects)
    .leftJoin(groups, and(eq(grantSubjects.subjectType, "GROUP"), eq(groups.id, grantSubjects.subjectId), eq(groups.kind, "grant")))
    .leftJoin(members, and(eq(grantSubjects.subjectType, "MEMBER"), eq(members.id, grantSubjects.subjectId)))
    .where(or(isNotNull(groups.id), isNotNull(members.id)))
    .groupBy(grantSubjects.code, grantSubjects.subjectType)
    .all();
  const total = (code: string, type: SubjectType) => totals.find((r) => r.code === code && r.type === type)?.n ?? 0;
  return {
    grants: PERMISSIONS.map((code) => ({
      code,
      label: PERMISSION_TEXT[code].label,
      description: PERMISSION_TEXT[code].description,
      allEnabled: enabled.has(code),
      disabled: false,
      groupTotal: total(code, "GROUP"),
      memberTotal: total(code, "MEMBER"),
    })),
  };
}
