import { escapeHtml } from "../../platform/http/html";
import type { Mail } from "../../platform/mail/mailer";
import type { Runtime } from "../../platform/runtime";

/** The page that accepts an invitation; it posts the token to acceptInvitation. */
export function acceptLink(rt: Runtime, tenantKey: string, token: string) {
  return `${rt.schoolUrl({ key: tenantKey })}/t/${encodeURIComponent(tenantKey)}/invitation?token=${encodeURIComponent(token)}`;
}

/** The invitation e-mail, Korean then English. */
export function invitationMail(rt: Runtime, tenant: { key: string; name: string }, to: string, token: string, expiresAt: number): Mail {
  const link = acceptLink(rt, tenant.key, token);
  const until = new Date(expiresAt).toISOString();
  const text = [
    `${tenant.name}에 초대되었습니다.`,
    `아래 링크에서 초대를 수락하고 계정을 만드세요. 링크는 ${until}(UTC)까지 유효합니다.`,
    link,
    "",
    `You have been invited to ${tenant.name}.`,
    `Accept the invitation and create your account at the link below. It is valid until ${until} (UTC).`,
    link,
    "",
  ].join("\n");
  const name = escapeHtml(tenant.name);
  const href = escapeHtml(link);
  const html = [
    `<p>${name}에 초대되었습니다. 아래 링크에서 초대를 수락하고 계정을 만드세요. 링크는 ${until}(UTC)까지 유효합니다.</p>`,
    `<p>You have been invited to ${name}. Accept the invitation and create your account below. It is valid until ${until} (UTC).</p>`,
    `<p><a href="${href}">초대 수락 / Accept the invitation</a></p>`,
  ].join("\n");
  return { to, subject: `[${tenant.name}] 초대 / Invitation`, text, html };
}

/** Sends with a small concurrency; a failed message is logged and does not undo the committed invitation. */
export async function sendAll(rt: Runtime, mails: Mail[], concurrency = 5) {
  let next = 0;
  const worker = async () => {
    while (next < mails.length) {
      const mail = mails[next++] as Mail;
      try {
        await rt.mailer.send(mail);
      } catch (e) {
        rt.log({ level: "error", event: "invitation.mail-failed", error: e instanceof Error ? e.message : String(e) });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, mails.length) }, worker));
}
