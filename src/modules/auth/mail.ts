import { escapeHtml } from "../../platform/http/html";
import type { Mail } from "../../platform/mail/mailer";

export type CodePurpose = "sign-up" | "password-reset" | "sign-in" | "tenant";

const subjects: Record<CodePurpose, { ko: string; en: string }> = {
  "sign-up": { ko: "가입 확인 코드", en: "Your sign-up code" },
  "password-reset": { ko: "비밀번호 재설정 코드", en: "Your password reset code" },
  "sign-in": { ko: "로그인 코드", en: "Your sign-in code" },
  tenant: { ko: "로그인 코드", en: "Your sign-in code" },
};

/** The one-time code mail, Korean first, then English; the code is the only variable part besides the tenant name. */
export function codeMail(to: string, purpose: CodePurpose, code: string, tenantName?: string | null): Mail {
  const s = subjects[purpose];
  const where = tenantName ? ` (${tenantName})` : "";
  const text = [
    `learnspace ${s.ko}${where}: ${code}`,
    "이 코드는 10분 동안 유효합니다. 요청하지 않았다면 이 메일을 무시하세요.",
    "",
    `learnspace ${s.en}${where}: ${code}`,
    "The code is valid for 10 minutes. If you did not ask for it, ignore this e-mail.",
  ].join("\n");
  const html = `<!doctype html><html><body style="font-family:sans-serif">
<p>learnspace ${escapeHtml(s.ko + where)}</p><p style="font-size:24px;letter-spacing:4px"><b>${code}</b></p>
<p>이 코드는 10분 동안 유효합니다. 요청하지 않았다면 이 메일을 무시하세요.</p><hr>
<p>learnspace ${escapeHtml(s.en + where)}</p><p style="font-size:24px;letter-spacing:4px"><b>${code}</b></p>
<p>The code is valid for 10 minutes. If you did not ask for it, ignore this e-mail.</p></body></html>`;
  return { to, subject: `[learnspace] ${s.ko} / ${s.en}`, text, html };
}
