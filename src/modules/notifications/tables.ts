import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { members } from "../../schema/members";
import type { NotificationKind } from "./model";

/**
 * One row per notification a member received (docs/rules/notifications.md#records). `dedupe_key`
 * names (kind, record, due moment[, student]): the unique (member_id, dedupe_key) makes each at most
 * once (docs/rules/notifications.md#exactly-once). `mail_at` is when its e-mail is due (now for
 * IMMEDIATE and EMERGENCY, the next digest hour for DIGEST), null once mailed or when none is sent.
 */
export const notifications = sqliteTable(
  "notifications",
  {
    id: text("id").primaryKey(),
    memberId: text("member_id")
      .notNull()
      .references(() => members.id, { onDelete: "cascade" }),
    kind: text("kind").$type<NotificationKind>().notNull(),
    spaceId: text("space_id"),
    recordType: text("record_type").notNull(),
    recordId: text("record_id").notNull(),
    titleKo: text("title_ko").notNull(),
    titleEn: text("title_en").notNull(),
    bodyPreview: text("body_preview").notNull(),
    url: text("url").notNull(),
    dedupeKey: text("dedupe_key").notNull(),
    createdAt: integer("created_at").notNull(),
    readAt: integer("read_at"),
    mailAt: integer("mail_at"),
  },
  (t) => [
    uniqueIndex("notifications_member_dedupe_idx").on(t.memberId, t.dedupeKey),
    index("notifications_member_list_idx").on(t.memberId, t.createdAt, t.id),
    index("notifications_member_unread_idx").on(t.memberId, t.createdAt, t.id).where(sql`read_at IS NULL`),
    index("notifications_mail_idx").on(t.mailAt, t.memberId).where(sql`mail_at IS NOT NULL`),
    index("notifications_created_idx").on(t.createdAt),
    // A deleted record's (or space's) notifications go with it (docs/rules/notifications.md#deleted-records).
    index("notifications_record_idx").on(t.spaceId, t.recordType, t.recordId),
  ],
);

/** A member's e-mail choices; no row = the defaults (DIGEST at 17, every kind, Korean). */
export const notificationSettings = sqliteTable("notification_settings", {
  memberId: text("member_id")
    .primaryKey()
    .references(() => members.id, { onDelete: "cascade" }),
  email: text("email", { enum: ["IMMEDIATE", "DIGEST", "OFF"] }).notNull(),
  digestHour: integer("digest_hour").notNull(),
  kinds: text("kinds", { mode: "json" }).$type<Record<string, boolean>>().notNull(),
  language: text("language", { enum: ["ko", "en"] }).notNull(),
  updatedAt: integer("updated_at").notNull(),
});

/**
 * The durable schedule of time-driven work (docs/rules/notifications.md#the-schedule): one row per
 * (job kind, record), run once `fire_at` has come; the job's handler notifies and says when it must
 * run next (or never: the row goes). Queried by (fire_at), never held in memory.
 */
export const notificationJobs = sqliteTable(
  "notification_jobs",
  {
    kind: text("kind").notNull(),
    recordId: text("record_id").notNull(),
    /** What the handler needs besides the record (the content type of a DUE_SOON job). */
    param: text("param"),
    fireAt: integer("fire_at").notNull(),
  },
  (t) => [uniqueIndex("notification_jobs_record_idx").on(t.recordId, t.kind), index("notification_jobs_fire_idx").on(t.fireAt)],
);
