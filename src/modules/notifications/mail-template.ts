// The HTML and text parts of notification mails (docs/rules/notifications.md#templating).
import { escapeHtml as esc } from "../../platform/http/html";

export type MailItem = { title: string; preview: string; url: string };
type Lang = "ko" | "en";

const T = {
  ko: {
    open: "열기",
    digest: (school: string, day: string, n: number) => `[${school}] ${day} 새 알림 ${n}건`,
    unsubscribe: "알림 메일 받지 않기",
    footer: "이 메일은 알림 설정에 따라 보내졌습니다.",
  },
  en: {
    open: "Open",
    digest: (school: string, day: string, n: number) => `[${school}] ${n} new notification${n === 1 ? "" : "s"} on ${day}`,
    unsubscribe: "Stop notification e-mails",
    footer: "You receive this e-mail because of your notification settings.",
  },
} as const;

const page = (lang: Lang, title: string, body: string, unsubscribeUrl: string) =>
  `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>${esc(title)}</title></head>` +
  `<body style="font:15px/1.5 system-ui,sans-serif;color:#222;background:#f4f5f7;margin:0;padding:24px">` +
  `<div style="max-width:560px;margin:0 auto;background:#fff;border-radius:8px;padding:24px">${body}` +
  `<p style="margin-top:24px;font-size:12px;color:#666">${esc(T[lang].footer)} <a href="${esc(unsubscribeUrl)}">${esc(T[lang].unsubscribe)}</a></p>` +
  `</div></body></html>`;

const itemHtml = (lang: Lang, i: MailItem) =>
  `<h2 style="font-size:16px;margin:16px 0 4px">${esc(i.title)}</h2>` +
  (i.preview ? `<p style="margin:0 0 8px">${esc(i.preview)}</p>` : "") +
  `<p style="margin:0"><a href="${esc(i.url)}" style="color:#2557d6">${esc(T[lang].open)}</a></p>`;

const itemText = (i: MailItem) => `${i.title}\n${i.preview ? `${i.preview}\n` : ""}${i.url}\n`;

/** One notification (IMMEDIATE, EMERGENCY). */
export function itemMail(lang: Lang, school: string, item: MailItem, unsubscribeUrl: string) {
  const subject = `[${school}] ${item.title}`;
  return {
    subject,
    text: `${itemText(item)}\n${T[lang].unsubscribe}: ${unsubscribeUrl}\n`,
    html: page(lang, subject, itemHtml(lang, item), unsubscribeUrl),
  };
}

/** A day's unread notifications in one mail (DIGEST). */
export function digestMail(lang: Lang, school: string, day: string, items: MailItem[], unsubscribeUrl: string) {
  const subject = T[lang].digest(school, day, items.length);
  return {
    subject,
    text: `${items.map(itemText).join("\n")}\n${T[lang].unsubscribe}: ${unsubscribeUrl}\n`,
    html: page(
      lang,
      subject,
      `<h1 style="font-size:18px;margin:0">${esc(subject)}</h1>${items.map((i) => itemHtml(lang, i)).join("")}`,
      unsubscribeUrl,
    ),
  };
}
