// A member's notification e-mail settings (docs/rules/notifications.md#e-mail).
import { and, eq, isNotNull, ne, sql } from "drizzle-orm";
import type { Static } from "elysia";
import type { Actor } from "../../platform/auth/actor";
import { type Db, write } from "../../platform/db/types";
import type { Runtime } from "../../platform/runtime";
import { tenantTimeZone } from "../tenant/settings";
import {
  type EmailMode,
  MAIL_SWITCHES,
  type MailSwitch,
  type NotificationKind,
  type NotificationSettings,
  type UpdateSettingsBody,
} from "./model";
import { notificationSettings, notifications } from "./tables";
import { nextLocalHour } from "./zone";

export type Settings = Static<typeof NotificationSettings>;

export const DEFAULT_DIGEST_HOUR = 17;

export const defaultSettings = (): Settings => ({
  email: "DIGEST",
  digestHour: DEFAULT_DIGEST_HOUR,
  kinds: Object.fromEntries(MAIL_SWITCHES.map((k) => [k, true])) as Record<MailSwitch, boolean>,
  language: "ko",
});

type Row = typeof notificationSettings.$inferSelect;

/** A stored row (or none) as the full settings: switches missing from an older row are on. */
export function settingsOf(row: Pick<Row, "email" | "digestHour" | "kinds" | "language"> | null | undefined): Settings {
  const d = defaultSettings();
  if (!row) return d;
  return { email: row.email, digestHour: row.digestHour, kinds: { ...d.kinds, ...row.kinds } as Settings["kinds"], language: row.language };
}

/** The settings switch that decides whether a kind is e-mailed; EMERGENCY has none (always). */
export function switchOf(kind: NotificationKind): MailSwitch | null {
  if (kind === "EMERGENCY" || kind === "GUARDIAN_EMERGENCY") return null;
  if (kind.startsWith("GUARDIAN_")) return "GUARDIAN";
  return kind as MailSwitch;
}

/**
 * When this kind's mail is due for a member with these settings and an e-mail address, created at
 * `now`: at once (IMMEDIATE, EMERGENCY), at the next digest hour (DIGEST), or never (null).
 */
export function mailAtFor(kind: NotificationKind, s: Settings, hasEmail: boolean, now: number, zone: string): number | null {
  if (!hasEmail) return null;
  const sw = switchOf(kind);
  if (sw === null) return now;
  if (s.email === "OFF" || !s.kinds[sw]) return null;
  return s.email === "IMMEDIATE" ? now : nextLocalHour(now, zone, s.digestHour);
}

export function readSettings(db: Db, memberId: string): Settings {
  return settingsOf(db.select().from(notificationSettings).where(eq(notificationSettings.memberId, memberId)).get());
}

/** Stores the settings and moves the member's pending mails to what they now say (EMERGENCY stays at once). */
export function storeSettings(tx: Db, memberId: string, s: Settings, now: number): void {
  const row = { memberId, email: s.email as EmailMode, digestHour: s.digestHour, kinds: s.kinds, language: s.language, updatedAt: now };
  tx.insert(notificationSettings).values(row).onConflictDoUpdate({ target: notificationSettings.memberId, set: row }).run();
  const pending = and(eq(notifications.memberId, memberId), isNotNull(notifications.mailAt), ne(notifications.kind, "EMERGENCY"));
  const next = s.email === "OFF" ? null : s.email === "IMMEDIATE" ? now : nextLocalHour(now, tenantTimeZone(tx), s.digestHour);
  tx.update(notifications)
    .set({ mailAt: next === null ? sql`NULL` : next })
    .where(and(pending, ne(notifications.kind, "GUARDIAN_EMERGENCY")))
    .run();
}

export function getMySettings(actor: Actor): Settings {
  return readSettings(actor.db, actor.memberId);
}

export function updateMySettings(rt: Runtime, actor: Actor, input: Static<typeof UpdateSettingsBody>): Settings {
  const now = rt.now();
  const next = write(actor.db, (tx) => {
    const current = readSettings(tx, actor.memberId);
    const merged: Settings = {
      email: input.email ?? current.email,
      digestHour: input.digestHour ?? current.digestHour,
      kinds: { ...current.kinds, ...Object.fromEntries(Object.entries(input.kinds ?? {}).filter(([, v]) => v !== undefined)) },
      language: input.language ?? current.language,
    };
    storeSettings(tx, actor.memberId, merged, now);
    return merged;
  });
  return next;
}
