import { nodeCrypto } from "../../platform/crypto";
import { escapeHtml as esc } from "../../platform/http/html";
import { isLinkUrl } from "../../platform/http/schemas";
import type { HostedLoginPage } from "../login-page/public";

export type Lang = "ko" | "en";
type Page = HostedLoginPage;

/** The page's language: the one chosen with ?lang= (the switch on every page), else whichever Accept-Language ranks higher; English when it names neither. */
export function pickLang(header: string | null, chosen?: string): Lang {
  if (chosen === "ko" || chosen === "en") return chosen;
  let best: Lang = "en";
  let weight = -1;
  for (const part of (header ?? "").toLowerCase().split(",")) {
    const [tag = "", ...params] = part.trim().split(";");
    const lang = tag.trim().split("-")[0];
    if (lang !== "ko" && lang !== "en") continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const w = q ? Number(q.slice(2)) || 0 : 1;
    if (w > weight) [best, weight] = [lang, w];
  }
  return best;
}

const T = {
  ko: {
    signIn: "로그인",
    identifier: "아이디 또는 이메일",
    password: "비밀번호",
    email: "이메일",
    code: "인증 코드",
    sendCode: "코드 받기",
    codeSent: "인증 코드를 보냈습니다.",
    signedIn: "{} 님, 로그인되었습니다.",
    fail: "요청을 처리하지 못했습니다.",
    joinTitle: "가입하기",
    joinCode: "가입 코드",
    displayName: "이름",
    userId: "아이디 (선택)",
    join: "가입",
    joined: "{} 님, 가입되었습니다.",
    spaceJoinTitle: "학습 공간 참여",
    spaceJoinHint: "계정으로 로그인하면 이 코드로 학습 공간에 참여합니다.",
    codePassword: "코드 비밀번호 (있는 경우)",
    spaceJoined: "{}에 참여했습니다.",
    invTitle: "초대 수락",
    accept: "초대 수락하고 계정 만들기",
    accepted: "계정이 만들어졌습니다. {}(으)로 로그인하세요.",
    toLogin: "로그인 페이지로",
    notFound: "페이지를 찾을 수 없습니다.",
    badLink: "링크가 올바르지 않습니다.",
    links: "바로가기",
    forgot: "비밀번호를 잊으셨나요?",
    resetTitle: "비밀번호 재설정",
    resetHint: "학교에 등록된 이메일로 인증 코드를 받아 새 비밀번호를 정합니다.",
    newPassword: "새 비밀번호 (8자 이상)",
    resetDone: "비밀번호를 바꿨습니다. 새 비밀번호로 로그인하세요.",
    setPassword: "비밀번호 바꾸기",
    language: "언어",
    codes: {
      INVALID_CREDENTIALS: "아이디(이메일) 또는 비밀번호가 맞지 않습니다.",
      INVALID_CODE: "인증 코드가 맞지 않거나 만료되었습니다.",
      VALIDATION_FAILED: "입력한 값을 확인하세요.",
      RATE_LIMITED: "요청이 너무 많습니다. 잠시 후 다시 시도하세요.",
      RESEND_TOO_SOON: "방금 보냈습니다. 잠시 후 다시 시도하세요.",
      SSO_ONLY: "이 계정은 학교 통합 로그인으로만 로그인할 수 있습니다.",
      SESSION_EXPIRED: "세션이 만료되었습니다. 다시 로그인하세요.",
      NOT_FOUND: "찾을 수 없습니다. 링크나 코드를 확인하세요.",
      ALREADY_EXISTS: "이미 있습니다.",
      INVALID_STATE: "지금은 할 수 없습니다.",
      FORBIDDEN: "권한이 없습니다.",
      SERVER_BUSY: "서버가 바쁩니다. 다시 시도하세요.",
      PROVIDER_UNAVAILABLE: "로그인 제공자에 연결할 수 없습니다.",
    },
    unsubTitle: "알림 메일 받지 않기",
    unsubHint: "버튼을 누르면 이 학교의 알림 메일이 더 이상 오지 않습니다. 알림함에는 계속 표시됩니다.",
    unsubButton: "메일 받지 않기",
    unsubDone: "알림 메일을 끊었습니다. 내 계정의 알림 설정에서 다시 켤 수 있습니다.",
  },
  en: {
    signIn: "Sign in",
    identifier: "User ID or e-mail",
    password: "Password",
    email: "E-mail",
    code: "Code",
    sendCode: "Send code",
    codeSent: "A code has been sent.",
    signedIn: "Signed in as {}.",
    fail: "The request failed.",
    joinTitle: "Join",
    joinCode: "Join code",
    displayName: "Name",
    userId: "User ID (optional)",
    join: "Join",
    joined: "Welcome, {}. You have joined.",
    spaceJoinTitle: "Join a space",
    spaceJoinHint: "Sign in with your account to join the space with this code.",
    codePassword: "Code password (if any)",
    spaceJoined: "You have joined {}.",
    invTitle: "Accept the invitation",
    accept: "Accept and create my account",
    accepted: "Your account has been created. Sign in as {}.",
    toLogin: "Go to the sign-in page",
    notFound: "Page not found.",
    badLink: "This link is not valid.",
    links: "Links",
    forgot: "Forgot your password?",
    resetTitle: "Reset your password",
    resetHint: "Get a code at the e-mail address your school has for you, then choose a new password.",
    newPassword: "New password (8 characters or more)",
    resetDone: "Your password has been changed. Sign in with the new one.",
    setPassword: "Change password",
    language: "Language",
    codes: {
      INVALID_CREDENTIALS: "The user ID (e-mail) or password is wrong.",
      INVALID_CODE: "The code is wrong or has expired.",
      VALIDATION_FAILED: "Check the values you entered.",
      RATE_LIMITED: "Too many attempts. Wait a moment and try again.",
      RESEND_TOO_SOON: "A code was sent a moment ago. Try again shortly.",
      SSO_ONLY: "This account signs in only through the school's single sign-on.",
      SESSION_EXPIRED: "Your session has expired. Sign in again.",
      NOT_FOUND: "Not found. Check the link or the code.",
      ALREADY_EXISTS: "It already exists.",
      INVALID_STATE: "This cannot be done now.",
      FORBIDDEN: "You may not do this.",
      SERVER_BUSY: "The server is busy. Try again.",
      PROVIDER_UNAVAILABLE: "The sign-in provider cannot be reached.",
    },
    unsubTitle: "Stop notification e-mails",
    unsubHint: "Press the button and this school sends you no more notification e-mails. Your inbox still shows them.",
    unsubButton: "Stop e-mails",
    unsubDone: "Notification e-mails are off. You can turn them on again under My account, notification settings.",
  },
} as const;

const CSS = `body{font:15px/1.5 system-ui,sans-serif;margin:0;background:#f4f5f7;color:#222}
main{max-width:380px;margin:40px auto;background:#fff;padding:24px 28px;border-radius:8px;box-shadow:0 1px 4px #0002}
h1{font-size:20px;margin:0 0 4px}h2{font-size:15px;margin:24px 0 4px}p{margin:4px 0 12px}img{max-height:48px;margin-bottom:12px}
label{display:block;margin:8px 0 2px;font-size:13px}input{width:100%;box-sizing:border-box;padding:8px;border:1px solid #bbb;border-radius:4px}
button,.btn{display:block;box-sizing:border-box;width:100%;margin-top:12px;padding:9px;border:0;border-radius:4px;background:#2557d6;color:#fff;font:inherit;text-align:center;text-decoration:none;cursor:pointer}
.alt{background:#e8ecf5;color:#2557d6}.notice{padding:8px 10px;background:#f0f4ff;border-radius:4px}
output{display:block;margin-top:8px;font-size:13px}.err{color:#b00020}.ok{color:#0a7a32}
nav{display:flex;flex-wrap:wrap;gap:4px 14px;margin-top:18px;font-size:13px}nav a{color:#2557d6}nav.lang a[aria-current]{font-weight:600;color:#222}`;

/**
 * Posts each form[data-path] as JSON to /api/v1 (a 503 SERVER_BUSY is retried after Retry-After and up to 1 s more, up to 5 times: the server spaces the Retry-Afters, docs/rules/sign-in.md#retry-after-paces-the-returns;
 * then goes to data-next, the console, if set); data-send requests a tenant code; data-provider starts external sign-in and,
 * back from it, hands over to the console (which calls refreshSession) or shows the error code; form[data-space-join] signs in with the password,
 * then joins the space with the code.
 */
const JS = `const B=document.body.dataset;
async function call(path,body,token){const h={'content-type':'application/json'};if(token)h.authorization='Bearer '+token;
for(let i=0;;i++){const r=await fetch('/api/v1'+path,{method:'POST',headers:h,body:JSON.stringify(body)});let j=null;try{j=await r.json()}catch(e){}
if(r.status===503&&j&&j.code==='SERVER_BUSY'&&i<5){await new Promise(d=>setTimeout(d,(Number(r.headers.get('retry-after'))||1)*1000+Math.random()*1000));continue}
return{ok:r.ok,j:j||{}}}}
function show(o,ok,text){o.textContent=text;o.className=ok?'ok':'err'}
const C=JSON.parse(B.codes||'{}');function why(j){return C[j.code]||B.fail}
for(const f of document.querySelectorAll('form[data-path]')){const o=f.querySelector('output');
f.addEventListener('submit',async e=>{e.preventDefault();const b={};for(const [k,v] of new FormData(f))if(v!=='')b[k]=v;
const r=await call(f.dataset.path,b);show(o,r.ok,r.ok?f.dataset.done.replace('{}',r.j.user?r.j.user.displayName:r.j.identifier):why(r.j));
if(r.ok&&f.dataset.next)location.assign(f.dataset.next)});
const s=f.querySelector('[data-send]');if(s)s.addEventListener('click',async()=>{
const r=await call(s.dataset.send||'/public/tenants/'+encodeURIComponent(B.tenant)+'/auth/request-code',{email:f.elements.email.value});
if(r.ok&&r.j.devCode)f.elements.code.value=r.j.devCode;show(o,r.ok,r.ok?B.sent:why(r.j))})}
for(const b of document.querySelectorAll('[data-provider]'))b.addEventListener('click',async()=>{
const r=await call('/auth/external/'+encodeURIComponent(b.dataset.provider)+'/start',{tenantKey:B.tenant,returnTo:location.pathname+'?signedIn=1'});
if(r.ok)location.href=r.j.url;else show(document.getElementById('sso'),false,why(r.j))});
const Q=new URLSearchParams(location.search),O=document.getElementById('sso');
for(const a of document.querySelectorAll('a[data-lang]')){const q=new URLSearchParams(location.search);q.set('lang',a.dataset.lang);a.href='?'+q}
if(O&&Q.get('error'))show(O,false,B.fail+' ('+Q.get('error')+')');
else if(Q.get('signedIn')&&!Q.get('error'))location.replace('/');
for(const f of document.querySelectorAll('form[data-space-join]')){const o=f.querySelector('output'),v=n=>f.elements[n].value;
f.addEventListener('submit',async e=>{e.preventDefault();
const a=await call('/auth/sign-in/password',{tenantKey:B.tenant,identifier:v('identifier'),password:v('password')});if(!a.ok)return show(o,false,why(a.j));
const b={code:v('joinCode')};if(v('codePassword')!=='')b.password=v('codePassword');
const r=await call('/spaces/join',b,a.j.accessToken);show(o,r.ok,r.ok?f.dataset.done.replace('{}',r.j.space.name):why(r.j))})}`;

/** An absolute http(s) or same-origin path URL, else null (no javascript: or data: links). */
const safeUrl = (u: string | null) => (u && isLinkUrl(u) ? u : null);

/** A URL inside a CSS url("…"): the characters that could end the string, the call or the style element, percent-encoded. */
const cssUrl = (u: string) => u.replace(/["'()\\<>\s]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`);

const input = (name: string, label: string, attrs = "") => `<label>${esc(label)}<input name="${name}" ${attrs}></label>`;
const tenantField = (key: string) => `<input type="hidden" name="tenantKey" value="${esc(key)}">`;

/** Links to the page in each language (the script keeps the page's other query parameters). */
const languageSwitch = (lang: Lang) =>
  `<nav class="lang" aria-label="${esc(T[lang].language)}"><a href="?lang=ko" lang="ko" data-lang="ko"${lang === "ko" ? ' aria-current="true"' : ""}>한국어</a><a href="?lang=en" lang="en" data-lang="en"${lang === "en" ? ' aria-current="true"' : ""}>English</a></nav>`;

/** The whole document with a fresh nonce: only its own inline style and script may run. */
function html(lang: Lang, status: number, title: string, body: string, data: Record<string, string> = {}, style = ""): Response {
  const nonce = nodeCrypto().randomBytes(16).toString("base64");
  const attrs = Object.entries({ ...data, fail: T[lang].fail, sent: T[lang].codeSent, codes: JSON.stringify(T[lang].codes) })
    .map(([k, v]) => ` data-${k}="${esc(v)}"`)
    .join("");
  const doc = `<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title><link rel="icon" type="image/svg+xml" href="/favicon.svg"><style nonce="${nonce}">${CSS}${style}</style></head>
<body${attrs}><main>${body}${languageSwitch(lang)}</main><script nonce="${nonce}">${JS}</script></body></html>`;
  return new Response(doc, {
    status,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": `default-src 'self'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; img-src 'self' https: data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'`,
      "x-frame-options": "DENY",
      "referrer-policy": "no-referrer",
      "x-content-type-options": "nosniff",
      "cache-control": "no-store",
      vary: "Accept-Language",
    },
  });
}

export const errorPage = (lang: Lang, status: 400 | 404) =>
  html(lang, status, T[lang][status === 404 ? "notFound" : "badLink"], `<h1>${esc(T[lang][status === 404 ? "notFound" : "badLink"])}</h1>`);

/** Logo, title and tenant name shared by the three pages. */
function header(page: Page, heading: string) {
  const logo = safeUrl(page.logoImageUrl);
  return `${logo ? `<img src="${esc(logo)}" alt="">` : ""}<h1>${esc(heading)}</h1><p>${esc(page.name)}</p>`;
}

export function loginPage(page: Page, key: string, lang: Lang): Response {
  const t = T[lang];
  const title = (lang === "ko" ? page.titleKo : page.titleEn) || page.name;
  const notice = lang === "ko" ? page.backgroundTitleKo : page.backgroundTitleEn;
  const color = /^(#[0-9a-f]{3,8}|[a-z]{3,20})$/i.test(page.backgroundTitleColor) ? `.notice{color:${page.backgroundTitleColor}}` : "";
  const background = safeUrl(page.backgroundImageUrl);
  const backdrop = background ? `body{background:#f4f5f7 url("${cssUrl(background)}") center/cover no-repeat fixed}` : "";
  // A link's label in the page's language, else the other one, else its URL.
  const links = page.externalLinks.flatMap((l) => {
    const url = safeUrl(l.url);
    const label = (lang === "ko" ? l.labelKo || l.labelEn : l.labelEn || l.labelKo) || l.url;
    return url ? [`<a href="${esc(url)}">${esc(label)}</a>`] : [];
  });
  // After sign-in the refresh cookie is set: the console at / takes over from there.
  const done = `data-done="${esc(t.signedIn)}" data-next="/"`;
  const social = (["social_a", "social_b"] as const)
    .filter((k) => page.methods[k])
    .map((k) => `<button type="button" class="alt" data-provider="${k}">${esc(page.buttonLabels[k][lang])}</button>`);
  // SAML comes back here too: a refusal is shown next to the buttons, a success hands over to the console (see JS).
  const back = `returnTo=${encodeURIComponent(`/t/${encodeURIComponent(key)}/login?signedIn=1`)}`;
  const sso = page.ssoProviders.map((p) => {
    const label = esc(lang === "ko" ? p.labelKo : p.labelEn);
    const url = safeUrl(p.loginUrl);
    return url
      ? `<a class="btn alt" href="${esc(`${url}${url.includes("?") ? "&" : "?"}${back}`)}">${label}</a>`
      : `<button type="button" class="alt" data-provider="${esc(p.key)}">${label}</button>`;
  });
  const body = `${header(page, title)}
${page.backgroundTitleEnabled && notice ? `<p class="notice">${esc(notice)}</p>` : ""}
<form method="post" data-path="/auth/sign-in/password" ${done}>${tenantField(key)}
${input("identifier", t.identifier, 'required maxlength="255" autocomplete="username"')}
${input("password", t.password, 'type="password" required autocomplete="current-password"')}
<button>${esc(t.signIn)}</button><output></output></form>
<p><a href="/t/${esc(encodeURIComponent(key))}/forgot-password?lang=${lang}">${esc(t.forgot)}</a></p>
${
  page.methods.email
    ? `<h2>${esc(page.buttonLabels.email[lang])}</h2><form method="post" data-path="/auth/sign-in/code" ${done}>${tenantField(key)}
${input("email", t.email, 'type="email" required autocomplete="email"')}<button type="button" class="alt" data-send>${esc(t.sendCode)}</button>
${input("code", t.code, 'required maxlength="6" autocomplete="one-time-code"')}<button>${esc(t.signIn)}</button><output></output></form>`
    : ""
}
${sso.length + social.length ? `${[...sso, ...social].join("\n")}<output id="sso"></output>` : ""}
${links.length ? `<nav aria-label="${esc(t.links)}">${links.join("")}</nav>` : ""}`;
  return html(lang, 200, page.name, body, { tenant: key }, color + backdrop);
}

export function joinPage(page: Page, key: string, code: string, lang: Lang): Response {
  const t = T[lang];
  const body = `${header(page, t.joinTitle)}
<form method="post" data-path="/public/tenants/${esc(encodeURIComponent(key))}/auth/join-with-code" data-done="${esc(t.joined)}">
${input("joinCode", t.joinCode, `required maxlength="50" value="${esc(code)}"`)}
${input("email", t.email, 'type="email" required autocomplete="email"')}<button type="button" class="alt" data-send>${esc(t.sendCode)}</button>
${input("code", t.code, 'required maxlength="6" autocomplete="one-time-code"')}
${input("displayName", t.displayName, 'required maxlength="255" autocomplete="name"')}
${input("userId", t.userId, 'maxlength="255" autocomplete="username"')}
${input("password", t.password, 'type="password" required autocomplete="new-password"')}
<button>${esc(t.join)}</button><output></output></form>`;
  return html(lang, 200, page.name, body, { tenant: key });
}

/** The link of a space join code: sign in (identifier + password), then joinSpaceWithCode. */
export function spaceJoinPage(page: Page, key: string, code: string, lang: Lang): Response {
  const t = T[lang];
  const body = `${header(page, t.spaceJoinTitle)}<p>${esc(t.spaceJoinHint)}</p>
<form method="post" data-space-join data-done="${esc(t.spaceJoined)}">
${input("joinCode", t.joinCode, `required maxlength="100" value="${esc(code)}"`)}
${input("codePassword", t.codePassword, 'type="password" autocomplete="off"')}
${input("identifier", t.identifier, 'required maxlength="255" autocomplete="username"')}
${input("password", t.password, 'type="password" required autocomplete="current-password"')}
<button>${esc(t.spaceJoinTitle)}</button><output></output></form>`;
  return html(lang, 200, page.name, body, { tenant: key });
}

export function invitationPage(page: Page, key: string, token: string, lang: Lang): Response {
  const t = T[lang];
  const body = `${header(page, t.invTitle)}
<form method="post" data-path="/public/invitations/${esc(encodeURIComponent(token))}/accept" data-done="${esc(t.accepted)}">
${input("displayName", t.displayName, 'required maxlength="255" autocomplete="name"')}
${input("userId", t.userId, 'maxlength="255" autocomplete="username"')}
${input("password", t.password, 'type="password" required autocomplete="new-password"')}
<button>${esc(t.accept)}</button><output></output></form>
<a class="btn alt" href="/t/${esc(encodeURIComponent(key))}/login">${esc(t.toLogin)}</a>`;
  return html(lang, 200, page.name, body, { tenant: key });
}

/** Forgot password: a code to the e-mail address, then a new password (requestPasswordResetCode, confirmPasswordReset). */
export function forgotPasswordPage(page: Page, key: string, lang: Lang): Response {
  const t = T[lang];
  const body = `${header(page, t.resetTitle)}<p>${esc(t.resetHint)}</p>
<form method="post" data-path="/auth/password-reset/confirm" data-done="${esc(t.resetDone)}">
${input("email", t.email, 'type="email" required autocomplete="email"')}<button type="button" class="alt" data-send="/auth/password-reset/request-code">${esc(t.sendCode)}</button>
${input("code", t.code, 'required maxlength="6" autocomplete="one-time-code"')}
${input("newPassword", t.newPassword, 'type="password" required minlength="8" autocomplete="new-password"')}
<button>${esc(t.setPassword)}</button><output></output></form>
<p><a href="/t/${esc(encodeURIComponent(key))}/login?lang=${lang}">${esc(t.toLogin)}</a></p>`;
  return html(lang, 200, page.name, body, { tenant: key });
}

/**
 * The confirm page behind a notification mail's unsubscribe link (docs/rules/notifications.md#unsubscribe):
 * a GET changes nothing; its button sends the one-click POST.
 */
export function unsubscribePage(token: string, lang: Lang): Response {
  const t = T[lang];
  const path = `/public/notification-unsubscribe?token=${encodeURIComponent(token)}`;
  return html(
    lang,
    200,
    t.unsubTitle,
    `<h1>${esc(t.unsubTitle)}</h1><p>${esc(t.unsubHint)}</p><form data-path="${esc(path)}" data-done="${esc(t.unsubDone)}"><button type="submit">${esc(t.unsubButton)}</button><output role="status"></output></form>`,
  );
}
