import { and, count, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { Actor } from "../../platform/auth/actor";
import type { Db } from "../../platform/db/types";
import type { DownloadRule } from "../../platform/files/tokens";
import { forbidden, notFound } from "../../platform/http/errors";
import { type SpaceRole, spaceMembers, spaces } from "../../schema/spaces";

export type SpaceRow = typeof spaces.$inferSelect;
/** A space the caller can see, with the caller's role in it (null = not enrolled). */
export type VisibleSpace = SpaceRow & { callerRole: SpaceRole | null };

/** The member's role in the space, or null when not enrolled. */
export function spaceRole(db: Db, spaceId: string, memberId: string): SpaceRole | null {
  const row = db
    .select({ role: spaceMembers.role })
    .from(spaceMembers)
    .where(and(eq(spaceMembers.spaceId, spaceId), eq(spaceMembers.memberId, memberId)))
    .get();
  return row?.role ?? null;
}

/** Who may take a space over without being its ADMIN: docs/rules/members.md#takeover. */
export const TAKEOVER_PERMISSION = "tenant-settings:manage";

/** docs/rules/access.md#spaces: a holder of space:create or tenant-settings:manage sees every space. */
export const seesEverySpace = (permissions: { has(p: string): boolean } | readonly string[]) => {
  const has = (p: string) => ("has" in permissions ? permissions.has(p) : permissions.includes(p));
  return has("space:create") || has(TAKEOVER_PERMISSION);
};

/** docs/rules/access.md#spaces: enrolled, or a public space, or the caller sees every space. */
export function canSeeSpace(actor: Actor, space: SpaceRow, role: SpaceRole | null): boolean {
  return role !== null || space.isPublic || seesEverySpace(actor.permissionSet);
}

/** canSeeSpace as SQL over spaces, for a reader given by member id and tenant permissions. */
export function visibleSpaceSql(memberId: string, canCreate: boolean): SQL {
  if (canCreate) return sql`1 = 1`;
  return sql`(${spaces.isPublic} = 1 OR EXISTS (SELECT 1 FROM space_members sm WHERE sm.space_id = ${spaces.id} AND sm.member_id = ${memberId}))`;
}

/** Spaces the member is enrolled in with `role` (listSpaces myRole; walks the space_members primary key). */
export function enrolledAsSql(memberId: string, role: "ADMIN" | "PARTICIPANT"): SQL {
  return sql`EXISTS (SELECT 1 FROM space_members sm WHERE sm.space_id = ${spaces.id} AND sm.member_id = ${memberId} AND sm.role = ${role})`;
}

/** For getFile (docs/rules/files.md#getfile): a space the caller can see has the file as its thumbnail. Walks spaces_thumbnail_idx. */
export function canSeeSpaceThumbnail(db: Db, actor: Pick<Actor, "memberId" | "permissionSet">, fileId: string): boolean {
  const row = db
    .select({ id: spaces.id })
    .from(spaces)
    .where(and(eq(spaces.thumbnailFileId, fileId), visibleSpaceSql(actor.memberId, seesEverySpace(actor.permissionSet))))
    .limit(1)
    .get();
  return row !== undefined;
}

/**
 * downloadFileContent of a URL emitted for `space:<spaceId>` (docs/rules/files.md#download-rules): the file is still the
 * space's thumbnail and the reader can still see the space.
 */
export function spaceThumbnailDownload(
  db: Db,
  spaceId: string,
  fileId: string,
  reader: { memberId: string; permissions: readonly string[] },
): DownloadRule {
  const row = db
    .select({ id: spaces.id })
    .from(spaces)
    .where(
      and(eq(spaces.id, spaceId), eq(spaces.thumbnailFileId, fileId), visibleSpaceSql(reader.memberId, seesEverySpace(reader.permissions))),
    )
    .get();
  return row ? "ok" : "gone";
}

/** The space if the caller can see it; unknown, other-tenant and invisible spaces alike are 404. */
export function visibleSpace(actor: Actor, spaceId: string, db: Db = actor.db): VisibleSpace {
  const space = db.select().from(spaces).where(eq(spaces.id, spaceId)).get();
  if (!space) throw notFound();
  const callerRole = spaceRole(db, spaceId, actor.memberId);
  if (!canSeeSpace(actor, space, callerRole)) throw notFound();
  return { ...space, callerRole };
}

/**
 * A space for a tenant-admin takeover (docs/rules/members.md#takeover): the caller's own ADMIN space,
 * or any space of the tenant for a holder of TAKEOVER_PERMISSION (who sees every space); else 403.
 */
export function spaceForTakeover(actor: Actor, spaceId: string, db: Db = actor.db): VisibleSpace {
  const space = visibleSpace(actor, spaceId, db);
  if (space.callerRole !== "ADMIN" && !actor.permissionSet.has(TAKEOVER_PERMISSION)) throw forbidden();
  return space;
}

/** `spaceMember` rule: 404 when not visible, then 403 when the caller is not enrolled. */
export function requireSpaceMember(actor: Actor, spaceId: string, db: Db = actor.db): VisibleSpace {
  const space = visibleSpace(actor, spaceId, db);
  if (space.callerRole === null) throw forbidden();
  return space;
}

/** `spaceAdmin` rule: 404 when not visible, then 403 unless the caller is an ADMIN (tenant permissions never count). */
export function requireSpaceAdmin(actor: Actor, spaceId: string, db: Db = actor.db): VisibleSpace {
  const space = visibleSpace(actor, spaceId, db);
  if (space.callerRole !== "ADMIN") throw forbidden();
  return space;
}

export type RoleCounts = { adminCount: number; participantCount: number };

/** adminCount/participantCount of a page of spaces in one grouped query over (space_id, role). */
export function spaceRoleCounts(db: Db, spaceIds: string[]): Map<string, RoleCounts> {
  const out = new Map<string, RoleCounts>();
  if (spaceIds.length === 0) return out;
  const rows = db
    .select({ spaceId: spaceMembers.spaceId, role: spaceMembers.role, n: count() })
    .from(spaceMembers)
    .where(inArray(spaceMembers.spaceId, spaceIds))
    .groupBy(spaceMembers.spaceId, spaceMembers.role)
    .all();
  for (const r of rows) {
    const c = out.get(r.spaceId) ?? { adminCount: 0, participantCount: 0 };
    if (r.role === "ADMIN") c.adminCount = r.n;
    else c.participantCount = r.n;
    out.set(r.spaceId, c);
  }
  return out;
}
