// THE one place that turns an event into notifications (docs/rules/notifications.md#the-emit-api).
import { and, eq, inArray, like, ne, notExists, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../platform/db/types";
import { inJsonList } from "../../platform/db/types";
import { members, profiles } from "../../schema/members";
import { type SpaceRole, spaceBlocks, spaceMembers } from "../../schema/spaces";
import { tenantTimeZone } from "../tenant/settings";
import { guardianLookup, inJobRun, type Scope } from "./hooks";
import { afterCommit, afterRemoval } from "./live";
import type { NotificationKind } from "./model";
import { scheduleJob } from "./schedule";
import { mailAtFor, settingsOf } from "./settings";
import { notificationJobs, notificationSettings, notifications } from "./tables";

export type NotifyInput = {
  kind: NotificationKind;
  /** The space the record lives in; recipients must be enrolled there (and not blocked). Null: no space. */
  spaceId: string | null;
  recordType: string;
  recordId: string;
  titleKo: string;
  titleEn: string;
  /** Up to 200 characters are kept. */
  bodyPreview?: string;
  /** The console path that opens the record. */
  url: string;
  /** The member who caused it: never a recipient. */
  actorMemberId?: string | null;
  /** Exactly these members (still filtered: active, enrolled in spaceId when set, not blocked, not the actor). */
  recipients?: readonly string[];
  /** Everyone enrolled in spaceId with one of these roles (default: every role). Ignored when `recipients` is given. */
  roles?: readonly SpaceRole[];
  /** The due moment of a time-driven kind (ms): part of what makes it unique. */
  moment?: number | null;
};

/** Guardian copies of a student's notification (docs/rules/notifications.md#guardian-copies). */
const GUARDIAN_KIND: Partial<Record<NotificationKind, NotificationKind>> = {
  EMERGENCY: "GUARDIAN_EMERGENCY",
  GRADE_RETURNED: "GUARDIAN_GRADE_RETURNED",
  DUE_SOON: "GUARDIAN_DUE_SOON",
};

const PREVIEW_MAX = 200;

type Recipient = { id: string; name: string; email: string | null; settings: ReturnType<typeof settingsOf> };

/** Active members, enrolled in the space and not blocked there when there is one, never the actor; at most `limit`. */
function selectRecipients(tx: Db, input: NotifyInput, ids: readonly string[] | null, ignoreSpace = false, limit = -1): Recipient[] {
  const conds: (SQL | undefined)[] = [eq(members.isActive, true)];
  if (input.actorMemberId) conds.push(ne(members.id, input.actorMemberId));
  if (ids) conds.push(inJsonList(members.id, ids));
  const base = tx
    .select({
      id: members.id,
      name: members.displayName,
      email: members.email,
      mode: notificationSettings.email,
      digestHour: notificationSettings.digestHour,
      kinds: notificationSettings.kinds,
      language: notificationSettings.language,
    })
    .from(members)
    .leftJoin(notificationSettings, eq(notificationSettings.memberId, members.id));
  const spaceId = input.spaceId;
  const rows =
    spaceId && !ignoreSpace
      ? base
          .innerJoin(spaceMembers, and(eq(spaceMembers.memberId, members.id), eq(spaceMembers.spaceId, spaceId)))
          .where(
            and(
              ...conds,
              !ids && input.roles ? inArray(spaceMembers.role, [...input.roles]) : undefined,
              notExists(
                tx
                  .select({ one: sql`1` })
                  .from(spaceBlocks)
                  .where(and(eq(spaceBlocks.spaceId, spaceId), eq(spaceBlocks.memberId, members.id))),
              ),
            ),
          )
          .limit(limit)
          .all()
      : base
          .where(and(...conds))
          .limit(limit)
          .all();
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    email: r.email,
    settings: settingsOf(
      r.mode ? { email: r.mode, digestHour: r.digestHour ?? 17, kinds: r.kinds ?? {}, language: r.language ?? "ko" } : null,
    ),
  }));
}

type NewRow = [id: string, memberId: string, kind: string, titleKo: string, titleEn: string, dedupeKey: string, mailAt: number | null];

/**
 * Fan-outs of more recipients than this are a job run after the commit, not rows of the caller's
 * transaction (docs/rules/notifications.md#fan-out). Tests lower it.
 */
export const FAN_OUT = { inlineMax: 100 };

/** The job of a deferred fan-out; each has its own kind `FANOUT:<id>` (several may wait for one record). */
export const FAN_OUT_JOB = "FANOUT";

/**
 * Notifies the right members of one event, inside the caller's transaction: one SELECT of the
 * recipients and one batched INSERT (docs/rules/notifications.md#fan-out). Over FAN_OUT.inlineMax
 * recipients (outside a job run), the transaction gets a FANOUT job instead, run at once after the
 * commit. A (member, kind, record, moment) already notified is skipped. Returns how many were
 * created now (0 when deferred).
 */
export function notify(tx: Db, scope: Scope, input: NotifyInput, now = Date.now()): number {
  const explicit = input.recipients ? [...new Set(input.recipients)] : null;
  if (explicit && explicit.length === 0) return 0;
  if (!explicit && !input.spaceId) return 0;
  if (inJobRun()) return fanOut(tx, scope, input, selectRecipients(tx, input, explicit), now);
  const recipients = selectRecipients(tx, input, explicit, false, FAN_OUT.inlineMax + 1);
  if (recipients.length <= FAN_OUT.inlineMax) return fanOut(tx, scope, input, recipients, now);
  const param = JSON.stringify({ input: { ...input, bodyPreview: input.bodyPreview?.slice(0, PREVIEW_MAX) }, now });
  scheduleJob(tx, scope, { kind: `${FAN_OUT_JOB}:${Bun.randomUUIDv7()}`, recordId: input.recordId, param, fireAt: now });
  return 0;
}

/** The FANOUT job (registered in index.ts): the deferred notify(), with the moment it was called at. */
export function runFanOut(tx: Db, scope: Scope, job: { param: string | null }): null {
  const { input, now } = JSON.parse(job.param ?? "{}") as { input?: NotifyInput; now?: number };
  if (input && now !== undefined) notify(tx, scope, input, now);
  return null;
}

function fanOut(tx: Db, scope: Scope, input: NotifyInput, recipients: Recipient[], now: number): number {
  if (recipients.length === 0) return 0;
  const zone = tenantTimeZone(tx);
  const key = `${input.kind}:${input.recordType}:${input.recordId}:${input.moment ?? ""}`;
  const rows: NewRow[] = recipients.map((r) => [
    Bun.randomUUIDv7(),
    r.id,
    input.kind,
    input.titleKo,
    input.titleEn,
    key,
    mailAtFor(input.kind, r.settings, r.email !== null, now, zone),
  ]);
  const copyKind = GUARDIAN_KIND[input.kind];
  const lookup = guardianLookup();
  if (copyKind && lookup)
    rows.push(
      ...guardianRows(
        tx,
        input,
        copyKind,
        recipients,
        lookup(
          tx,
          recipients.map((r) => r.id),
        ),
        now,
        zone,
      ),
    );
  const inserted = tx.all<{ id: string; member_id: string; mail_at: number | null }>(sql`
    INSERT INTO notifications (id, member_id, kind, space_id, record_type, record_id, title_ko, title_en, body_preview, url, dedupe_key, created_at, read_at, mail_at)
    SELECT value ->> 0, value ->> 1, value ->> 2, ${input.spaceId}, ${input.recordType}, ${input.recordId}, value ->> 3, value ->> 4,
      ${(input.bodyPreview ?? "").slice(0, PREVIEW_MAX)}, ${input.url}, value ->> 5, ${now}, NULL, value ->> 6
    FROM json_each(${JSON.stringify(rows)}) WHERE true
    ON CONFLICT (member_id, dedupe_key) DO NOTHING
    RETURNING id, member_id, mail_at`);
  if (inserted.length) afterCommit(scope.tenantId, inserted, now);
  return inserted.length;
}

/** The copies for the guardians of these students, each naming its student. */
function guardianRows(
  tx: Db,
  input: NotifyInput,
  kind: NotificationKind,
  students: Recipient[],
  links: Map<string, string[]>,
  now: number,
  zone: string,
): NewRow[] {
  const wanted = [...new Set([...links.values()].flat())];
  if (wanted.length === 0) return [];
  const guardians = new Map(selectRecipients(tx, { ...input, actorMemberId: null }, wanted, true).map((g) => [g.id, g]));
  const key = `${kind}:${input.recordType}:${input.recordId}:${input.moment ?? ""}`;
  return students.flatMap((s) =>
    (links.get(s.id) ?? []).flatMap((gid): NewRow[] => {
      const g = guardians.get(gid);
      if (!g) return [];
      const mailAt = mailAtFor(kind, g.settings, g.email !== null, now, zone);
      return [[Bun.randomUUIDv7(), g.id, kind, `[${s.name}] ${input.titleKo}`, `[${s.name}] ${input.titleEn}`, `${key}:${s.id}`, mailAt]];
    }),
  );
}

/** The members owning these profiles (submissions and attempts name profiles; notify takes members). */
export function membersOfProfiles(db: Db, profileIds: readonly string[]): string[] {
  if (profileIds.length === 0) return [];
  return db
    .select({ memberId: profiles.memberId })
    .from(profiles)
    .where(inJsonList(profiles.id, profileIds))
    .all()
    .map((r) => r.memberId);
}

/**
 * Records of a space are deleted: the notifications naming them go too, read or not, guardian
 * copies included, and fan-outs not run yet (docs/rules/notifications.md#deleted-records). Inside
 * the deleting transaction.
 */
export function forgetNotifications(tx: Db, scope: Scope, spaceId: string, recordType: string, recordIds: readonly string[]): number {
  if (recordIds.length === 0) return 0;
  tx.delete(notificationJobs)
    .where(and(like(notificationJobs.kind, `${FAN_OUT_JOB}:%`), inJsonList(notificationJobs.recordId, recordIds)))
    .run();
  return forget(
    tx,
    scope,
    and(eq(notifications.spaceId, spaceId), eq(notifications.recordType, recordType), inJsonList(notifications.recordId, recordIds)),
  );
}

/** A space is deleted: every notification in it goes (its posts, comments and messages are gone, its pages too). */
export function forgetSpaceNotifications(tx: Db, scope: Scope, spaceId: string): number {
  return forget(tx, scope, eq(notifications.spaceId, spaceId));
}

/** Deletes the notifications `where` names; members listening who lost an unread one get their new count after the commit. */
function forget(tx: Db, scope: Scope, where: SQL | undefined): number {
  const gone = tx.delete(notifications).where(where).returning({ memberId: notifications.memberId, readAt: notifications.readAt }).all();
  afterRemoval(
    scope.tenantId,
    gone.filter((g) => g.readAt === null).map((g) => g.memberId),
  );
  return gone.length;
}
