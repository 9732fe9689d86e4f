// Notification e-mail: immediate mails and daily digests through the outbox
// (docs/rules/notifications.md#e-mail).
import { and, asc, eq, inArray, isNotNull, lte, sql } from "drizzle-orm";
import { mac, sameMac } from "../../platform/crypto";
import { commitNow, type Db, write } from "../../platform/db/types";
import type { Mail } from "../../platform/mail/mailer";
import type { Runtime } from "../../platform/runtime";
import { members } from "../../schema/members";
import { tenantDisplayName, tenantTimeZone } from "../tenant/settings";
import { digestMail, itemMail, type MailItem } from "./mail-template";
import { settingsOf } from "./settings";
import { notificationSettings, notifications } from "./tables";
import { localDate } from "./zone";

/** Members mailed per transaction: a digest for 10,000 members is read and sent in slices. */
const MEMBERS_PER_SLICE = 500;
const PURPOSE = "notification-unsubscribe";

/** The one-click unsubscribe token: names the member and tenant, MAC-signed, never expires. */
export function unsubscribeToken(secret: string, tenantId: string, memberId: string): string {
  const value = `${tenantId}.${memberId}`;
  return `${value}.${mac(secret, PURPOSE, value)}`;
}

/** The member and tenant of a genuine token, else null. */
export function readUnsubscribeToken(secret: string, token: string): { tenantId: string; memberId: string } | null {
  const [tenantId, memberId, sig, extra] = token.split(".");
  if (!tenantId || !memberId || !sig || extra !== undefined) return null;
  return sameMac(sig, mac(secret, PURPOSE, `${tenantId}.${memberId}`)) ? { tenantId, memberId } : null;
}

function unsubscribeHeaders(rt: Runtime, tenantId: string, memberId: string) {
  const url = `${rt.schoolUrl({ id: tenantId })}/api/v1/public/notification-unsubscribe?token=${encodeURIComponent(unsubscribeToken(rt.secret, tenantId, memberId))}`;
  return { url, headers: { "List-Unsubscribe": `<${url}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" } };
}

type Due = typeof notifications.$inferSelect;

/**
 * Sends every mail due at `now`: per member, IMMEDIATE (and EMERGENCY) items one mail each, a
 * DIGEST member's unread items in one mail (read ones are dropped). The rows are cleared in the
 * transaction before the outbox gets the mails: a crash in between loses a mail, never doubles one.
 */
export async function sendDueMails(rt: Runtime, db: Db, tenantId: string, now: number): Promise<number> {
  let sent = 0;
  for (;;) {
    const mails = write(db, (tx) => {
      const memberIds = tx
        .selectDistinct({ id: notifications.memberId })
        .from(notifications)
        .where(and(isNotNull(notifications.mailAt), lte(notifications.mailAt, now)))
        .limit(MEMBERS_PER_SLICE)
        .all()
        .map((r) => r.id);
      if (memberIds.length === 0) return null;
      const due = tx
        .select()
        .from(notifications)
        .where(and(inArray(notifications.memberId, memberIds), isNotNull(notifications.mailAt), lte(notifications.mailAt, now)))
        .orderBy(asc(notifications.memberId), asc(notifications.createdAt))
        .all();
      tx.update(notifications)
        .set({ mailAt: sql`NULL` })
        .where(and(inArray(notifications.memberId, memberIds), isNotNull(notifications.mailAt), lte(notifications.mailAt, now)))
        .run();
      return composeMails(rt, tx, tenantId, memberIds, due, now);
    });
    if (mails === null) return sent;
    commitNow(db);
    for (const m of mails) await rt.mailer.send(m);
    sent += mails.length;
  }
}

function composeMails(rt: Runtime, tx: Db, tenantId: string, memberIds: string[], due: Due[], now: number): Mail[] {
  const people = new Map(
    tx
      .select({ id: members.id, email: members.email, isActive: members.isActive, s: notificationSettings })
      .from(members)
      .leftJoin(notificationSettings, eq(notificationSettings.memberId, members.id))
      .where(inArray(members.id, memberIds))
      .all()
      .map((p) => [p.id, p]),
  );
  const school = tenantDisplayName(tx) ?? "learnspace";
  const zone = tenantTimeZone(tx);
  const byMember = new Map<string, Due[]>();
  for (const n of due) byMember.set(n.memberId, [...(byMember.get(n.memberId) ?? []), n]);
  const out: Mail[] = [];
  for (const [memberId, items] of byMember) {
    const p = people.get(memberId);
    if (!p?.email || !p.isActive) continue;
    const s = settingsOf(p.s);
    const { url: unsubscribeUrl, headers } = unsubscribeHeaders(rt, tenantId, memberId);
    const toItem = (n: Due): MailItem => ({
      title: s.language === "en" ? n.titleEn : n.titleKo,
      preview: n.bodyPreview,
      url: `${rt.schoolUrl({ id: tenantId })}${n.url}`,
    });
    const always = items.filter((n) => n.kind === "EMERGENCY" || n.kind === "GUARDIAN_EMERGENCY");
    const rest = items.filter((n) => !always.includes(n));
    const single = s.email === "IMMEDIATE" ? [...always, ...rest] : always;
    for (const n of single) out.push({ to: p.email, headers, ...itemMail(s.language, school, toItem(n), unsubscribeUrl) });
    if (s.email === "DIGEST") {
      const unread = rest.filter((n) => n.readAt === null);
      if (unread.length)
        out.push({ to: p.email, headers, ...digestMail(s.language, school, localDate(now, zone), unread.map(toItem), unsubscribeUrl) });
    }
  }
  return out;
}
