import { t } from "elysia";
import { CursorQuery, Enum, Id, Int, NextCursor, Nullable, QueryBool, Timestamp } from "../../platform/http/schemas";

/** Every kind a notification may have (docs/rules/notifications.md#kinds). */
export const NOTIFICATION_KINDS = [
  "POST",
  "EMERGENCY",
  "CONTENT",
  "DUE_SOON",
  "CHALLENGE_REMINDER",
  "GRADE_RETURNED",
  "QUESTION",
  "COMMENT",
  "MESSAGE",
  "GUARDIAN_EMERGENCY",
  "GUARDIAN_GRADE_RETURNED",
  "GUARDIAN_DUE_SOON",
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** The switches of `kinds` in the settings: what is e-mailed (GUARDIAN covers every GUARDIAN_* kind). */
export const MAIL_SWITCHES = [
  "POST",
  "CONTENT",
  "DUE_SOON",
  "CHALLENGE_REMINDER",
  "GRADE_RETURNED",
  "QUESTION",
  "COMMENT",
  "MESSAGE",
  "GUARDIAN",
] as const;
export type MailSwitch = (typeof MAIL_SWITCHES)[number];

export const EMAIL_MODES = ["IMMEDIATE", "DIGEST", "OFF"] as const;
export type EmailMode = (typeof EMAIL_MODES)[number];

export const Notification = t.Object({
  id: t.String(),
  kind: Enum(NOTIFICATION_KINDS),
  spaceId: Nullable(t.String()),
  spaceName: Nullable(t.String()),
  recordType: t.String({ description: "POST, CONTENT, CHALLENGE_TASK, COMMENT or MESSAGE" }),
  recordId: t.String(),
  titleKo: t.String(),
  titleEn: t.String(),
  bodyPreview: t.String(),
  url: t.String({ description: "The console path that opens the record" }),
  createdAt: Timestamp,
  readAt: Nullable(Timestamp),
});

export const NotificationPage = t.Object({ notifications: t.Array(Notification), unreadCount: Int(), nextCursor: NextCursor });

export const ListNotificationsQuery = t.Object({ unreadOnly: t.Optional(QueryBool), ...CursorQuery });

export const MarkReadBody = t.Object({
  ids: t.Optional(t.Array(Id, { minItems: 1, maxItems: 100, error: "must list 1..100 ids" })),
  all: t.Optional(t.Literal(true, { error: "must be true" })),
});

const Kinds = t.Object(Object.fromEntries(MAIL_SWITCHES.map((k) => [k, t.Boolean()])) as Record<MailSwitch, ReturnType<typeof t.Boolean>>);
const KindsPatch = t.Partial(Kinds);

export const NotificationSettings = t.Object({
  email: Enum(EMAIL_MODES),
  digestHour: Int({ minimum: 0, maximum: 23 }),
  kinds: Kinds,
  language: Enum(["ko", "en"], { description: "The language of the member's notification e-mails (ko unless en)" }),
});

export const UpdateSettingsBody = t.Object({
  email: t.Optional(Enum(EMAIL_MODES, { error: "must be IMMEDIATE, DIGEST or OFF" })),
  digestHour: t.Optional(Int({ minimum: 0, maximum: 23, error: "must be an integer 0..23" })),
  kinds: t.Optional(KindsPatch),
  language: t.Optional(Enum(["ko", "en"], { error: "must be ko or en" })),
});

export const UnsubscribeQuery = t.Object({ token: t.String({ minLength: 1, maxLength: 500, error: "must be a token" }) });
export const UnsubscribeResult = t.Object({ email: t.Literal("OFF") });
