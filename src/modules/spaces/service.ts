import { and, asc, count, desc, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { Static } from "elysia";
import type { Actor } from "../../platform/auth/actor";
import { type Db, write } from "../../platform/db/types";
import { forbidden, invalid } from "../../platform/http/errors";
import { isoRequired } from "../../platform/http/schemas";
import type { Runtime } from "../../platform/runtime";
import { customFields, spaceFieldValues } from "../../schema/fields";
import { members } from "../../schema/members";
import { spaceMembers, spaces } from "../../schema/spaces";
import { fileDownloadUrl, readyFilesByIds, requireReadyFiles } from "../files/attachments";
import { contains } from "../groups/lookup";
import { detachSpaceNodes } from "../library/nodes";
import type { FieldValue } from "../members/model";
import { forgetSpaceNotifications } from "../notifications/emit";
import { enrolledAsSql, requireSpaceAdmin, type SpaceRow, seesEverySpace, spaceRoleCounts, visibleSpace, visibleSpaceSql } from "./access";
import { spaceContentCounts } from "./content-counts";
import { enrol, enrolmentOf } from "./members";
import type { CreateSpaceBody, ListSpacesQuery, Space, UpdateSpaceBody } from "./model";
import { applySpacePolicy, effectiveAllowFileDownload, effectiveVodConcurrentLimit, getSpaceDefaults, spaceMenus } from "./settings";

type SpaceRecord = Static<typeof Space>;
type FieldValueRecord = Static<typeof FieldValue>;

const LIST_OP = "listSpaces";

/** Who reads a space record: thumbnail URLs are signed for this reader. */
export type Viewer = { rt: Runtime; actor: Actor };

/** The thumbnail must be the caller's own ready upload (400 naming thumbnailFileId). */
function checkThumbnail(tx: Db, actor: Actor, fileId: string | null | undefined, current: string | null = null) {
  if (fileId == null || fileId === current) return;
  try {
    requireReadyFiles(tx, actor, [fileId], "thumbnailFileId");
  } catch {
    throw invalid("thumbnailFileId", "must be one of your own uploaded (ready) files");
  }
}

function toSpace(
  row: SpaceRow,
  defaults: ReturnType<typeof getSpaceDefaults>,
  thumbnailUrl: string | null,
  roles: { adminCount: number; participantCount: number },
  content: { postCount: number; contentCount: number },
  fieldValues: FieldValueRecord[],
): SpaceRecord {
  return {
    id: row.id,
    name: row.name,
    representativeName: row.representativeName,
    description: row.description,
    thumbnailUrl,
    semester: row.semester,
    isActive: row.isActive,
    isPublic: row.isPublic,
    autoJoin: row.autoJoin,
    exitRestricted: row.exitRestricted,
    allowFileDownload: effectiveAllowFileDownload(defaults, row.allowFileDownload),
    vodConcurrentLimit: effectiveVodConcurrentLimit(defaults, row.vodConcurrentLimit),
    retainEnrollmentHistory: row.retainEnrollmentHistory,
    startMenu: row.startMenu,
    enabledMenus: row.enabledMenus,
    messageEnabled: row.messageEnabled,
    ...roles,
    ...content,
    createdAt: isoRequired(row.createdAt),
    fieldValues,
  };
}

/** Field values of a page of spaces in one query, in field order. */
function fieldValuesOf(db: Db, spaceIds: string[]): Map<string, FieldValueRecord[]> {
  const out = new Map<string, FieldValueRecord[]>();
  if (spaceIds.length === 0) return out;
  const rows = db
    .select({ v: spaceFieldValues })
    .from(spaceFieldValues)
    .innerJoin(customFields, eq(customFields.id, spaceFieldValues.fieldId))
    .where(inArray(spaceFieldValues.spaceId, spaceIds))
    .orderBy(asc(customFields.position), asc(customFields.id))
    .all();
  for (const { v } of rows) {
    const list = out.get(v.spaceId) ?? [];
    list.push({
      fieldId: v.fieldId,
      valueText: v.valueText,
      valueNumber: v.valueNumber,
      valueDate: v.valueDate == null ? null : isoRequired(v.valueDate),
    });
    out.set(v.spaceId, list);
  }
  return out;
}

/** Rows → records with their counts and field values: a fixed number of queries per page. */
export function toSpaces(db: Db, viewer: Viewer, rows: SpaceRow[]): SpaceRecord[] {
  const ids = rows.map((r) => r.id);
  const thumbnails = readyFilesByIds(
    db,
    rows.flatMap((r) => (r.thumbnailFileId ? [r.thumbnailFileId] : [])),
  );
  const url = (r: SpaceRow) =>
    r.thumbnailFileId && thumbnails.has(r.thumbnailFileId)
      ? fileDownloadUrl(viewer.rt, {
          tenantId: viewer.actor.tenantId,
          fileId: r.thumbnailFileId,
          readerId: viewer.actor.memberId,
          attachedTo: `space:${r.id}`,
        })
      : null;
  const roles = spaceRoleCounts(db, ids);
  const content = spaceContentCounts(db, ids);
  const values = fieldValuesOf(db, ids);
  const defaults = getSpaceDefaults(db);
  return rows.map((r) =>
    toSpace(
      r,
      defaults,
      url(r),
      roles.get(r.id) ?? { adminCount: 0, participantCount: 0 },
      content.get(r.id) ?? { postCount: 0, contentCount: 0 },
      values.get(r.id) ?? [],
    ),
  );
}

export const spaceRecord = (db: Db, viewer: Viewer, row: SpaceRow): SpaceRecord => toSpaces(db, viewer, [row])[0] as SpaceRecord;

export function createSpace(rt: Runtime, actor: Actor, input: Static<typeof CreateSpaceBody>, now = Date.now()) {
  return write(actor.db, (tx) => {
    checkThumbnail(tx, actor, input.thumbnailFileId);
    const flags = applySpacePolicy(getSpaceDefaults(tx), input);
    const row = tx
      .insert(spaces)
      .values({
        id: Bun.randomUUIDv7(),
        name: input.name,
        representativeName: input.representativeName ?? null,
        description: input.description ?? null,
        thumbnailFileId: input.thumbnailFileId ?? null,
        semester: input.semester ?? null,
        isActive: true,
        isPublic: input.isPublic ?? false,
        ...flags,
        retainEnrollmentHistory: input.retainEnrollmentHistory ?? false,
        ...spaceMenus(tx),
        messageEnabled: false,
        createdAt: now,
        updatedAt: now,
      })
      .returning()
      .get();
    enrol(tx, row, [actor.memberId], "ADMIN", now, true);
    return spaceRecord(tx, { rt, actor }, row);
  });
}

export function getSpace(rt: Runtime, actor: Actor, spaceId: string) {
  return spaceRecord(actor.db, { rt, actor }, visibleSpace(actor, spaceId));
}

/** PATCH: absent fields unchanged; the tenant's enforce* flags still win over sent values. */
export function updateSpace(rt: Runtime, actor: Actor, spaceId: string, input: Static<typeof UpdateSpaceBody>, now = Date.now()) {
  return write(actor.db, (tx) => {
    const space = requireSpaceAdmin(actor, spaceId, tx);
    checkThumbnail(tx, actor, input.thumbnailFileId, space.thumbnailFileId);
    const d = getSpaceDefaults(tx);
    const patch: Partial<typeof spaces.$inferInsert> = { updatedAt: now };
    for (const key of [
      "name",
      "representativeName",
      "description",
      "thumbnailFileId",
      "semester",
      "isActive",
      "isPublic",
      "startMenu",
      "enabledMenus",
      "messageEnabled",
      "autoJoin",
      "exitRestricted",
      "retainEnrollmentHistory",
    ] as const) {
      if (input[key] !== undefined) Object.assign(patch, { [key]: input[key] });
    }
    if (input.allowFileDownload !== undefined) patch.allowFileDownload = effectiveAllowFileDownload(d, input.allowFileDownload);
    if (input.vodConcurrentLimit !== undefined) patch.vodConcurrentLimit = effectiveVodConcurrentLimit(d, input.vodConcurrentLimit);
    const row = tx.update(spaces).set(patch).where(eq(spaces.id, spaceId)).returning().get() as SpaceRow;
    return spaceRecord(tx, { rt, actor }, row);
  });
}

/**
 * Returns the removed space. Its members, join codes, blocks, group sets, field values, enrolment
 * history, posts and challenges go by cascade; its library folders move to the tenant library.
 */
export function deleteSpace(rt: Runtime, actor: Actor, spaceId: string) {
  return write(actor.db, (tx) => {
    const space = requireSpaceAdmin(actor, spaceId, tx);
    // Only the owner deletes (docs/rules/spaces.md#deleting); other ADMINs may take ownership over first.
    if (!enrolmentOf(tx, spaceId, actor.memberId)?.isOwner) throw forbidden("FORBIDDEN", "Only the owner of a space deletes it.");
    const record = spaceRecord(tx, { rt, actor }, space);
    // The space's folders and their contents move to the tenant library; nothing there is deleted.
    detachSpaceNodes(tx, spaceId);
    tx.delete(spaces).where(eq(spaces.id, spaceId)).run();
    forgetSpaceNotifications(tx, actor, spaceId);
    return record;
  });
}

type ListQuery = Static<typeof ListSpacesQuery>;

/** Newest first on (created_at, id); the cursor is bound to the filters. Only visible spaces. */
export function listSpaces(rt: Runtime, actor: Actor, q: ListQuery) {
  const cursors = rt.cursors;
  const filters = {
    search: q.search ?? null,
    isActive: q.isActive ?? null,
    semester: q.semester ?? null,
    autoJoin: q.autoJoin ?? null,
    exitRestricted: q.exitRestricted ?? null,
    myRole: q.myRole ?? null,
  };
  const after = cursors.decode<unknown>(LIST_OP, filters, q.cursor);
  if (after !== null && !(Array.isArray(after) && after.length === 2 && typeof after[0] === "number" && typeof after[1] === "string")) {
    throw invalid("cursor", "is not a valid cursor for this list", "query");
  }
  const conds: SQL[] = [];
  if (q.search !== undefined) conds.push(contains(spaces.name, q.search));
  if (q.isActive !== undefined) conds.push(eq(spaces.isActive, q.isActive === "true"));
  if (q.semester !== undefined) conds.push(eq(spaces.semester, q.semester));
  if (q.autoJoin !== undefined) conds.push(eq(spaces.autoJoin, q.autoJoin === "true"));
  if (q.exitRestricted !== undefined) conds.push(eq(spaces.exitRestricted, q.exitRestricted === "true"));
  if (q.myRole !== undefined) conds.push(enrolledAsSql(actor.memberId, q.myRole));
  if (!seesEverySpace(actor.permissionSet)) conds.push(visibleSpaceSql(actor.memberId, false));
  const where = conds.length ? and(...conds) : undefined;
  const total = actor.db.select({ n: count() }).from(spaces).where(where).get()?.n ?? 0;
  const limit = q.limit ?? 30;
  const position = after as [number, string] | null;
  const rows = actor.db
    .select()
    .from(spaces)
    .where(and(where, position ? sql`(${spaces.createdAt}, ${spaces.id}) < (${position[0]}, ${position[1]})` : undefined))
    .orderBy(desc(spaces.createdAt), desc(spaces.id))
    .limit(limit + 1)
    .all();
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const nextCursor = rows.length > limit && last ? cursors.encode(LIST_OP, filters, [last.createdAt, last.id]) : null;
  return { spaces: toSpaces(actor.db, { rt, actor }, page), total, nextCursor };
}

/** The number of spaces the member with this e-mail is enrolled in (0 when no member has it). */
export function checkSpaceEmailCount(db: Db, email: string) {
  const n =
    db
      .select({ n: count() })
      .from(spaceMembers)
      .innerJoin(members, eq(members.id, spaceMembers.memberId))
      .where(eq(members.email, email.toLowerCase()))
      .get()?.n ?? 0;
  return { email, count: n };
}
