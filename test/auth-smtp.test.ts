import { afterAll, describe, expect, test } from "bun:test";
import { SMTPServer } from "smtp-server";
import { fresh } from "./helpers/auth";
import { useServer } from "./helpers/server";

// A real SMTP server for this file, started before the app so its port can go into the app's config.
type Received = { to: string[]; raw: string };
const inbox: Received[] = [];
const smtp = new SMTPServer({
  secure: false,
  authOptional: true,
  disabledCommands: ["STARTTLS"],
  logger: false,
  onData(stream, session, done) {
    const chunks: Buffer[] = [];
    stream.on("data", (c: Buffer) => chunks.push(c));
    stream.on("end", () => {
      inbox.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString("utf8") });
      done();
    });
  },
});
await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", () => resolve()));
const port = (smtp.server.address() as { port: number }).port;
afterAll(() => new Promise<void>((resolve) => smtp.close(() => resolve())));

const s = useServer({ smtpUrl: `smtp://127.0.0.1:${port}?ignoreTLS=true`, devCodes: false });

async function mailTo(email: string, timeoutMs = 5000): Promise<Received> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const m = inbox.find((x) => x.to.includes(email));
    if (m) return m;
    await Bun.sleep(20);
  }
  throw new Error(`no mail to ${email}`);
}

/** The code from the plain-text part (quoted-printable or base64 bodies are decoded by looking at both). */
function codeIn(raw: string): string {
  const decoded = raw.replace(/=\r?\n/g, "");
  const plain = /learnspace [^:\n]*: (\d{6})/.exec(decoded)?.[1];
  if (plain) return plain;
  for (const b64 of raw.match(/\r?\n\r?\n([A-Za-z0-9+/=\r\n]{40,})/g) ?? []) {
    const m = /(\d{6})/.exec(Buffer.from(b64.replace(/\s/g, ""), "base64").toString("utf8"));
    if (m?.[1]) return m[1];
  }
  throw new Error("no code in mail");
}

describe("e-mail delivery over SMTP", () => {
  test("the sign-up code arrives by SMTP (not in the response) and signs in", async () => {
    const f = fresh("smtp");
    const up = await s.call("POST", "/api/v1/auth/sign-up", {
      json: { email: f.email, password: "Passw0rd!", displayName: "Mail User", tenantKey: f.tenantKey, tenantName: "Mail Co" },
    });
    expect(up.status).toBe(201);
    expect(up.body.devCode).toBeUndefined();
    const mail = await mailTo(f.email);
    expect(mail.raw).toMatch(/^Subject: /m);
    const code = codeIn(mail.raw);
    const res = await s.call("POST", "/api/v1/auth/sign-up/verify", { json: { email: f.email, code } });
    expect(res.status).toBe(200);
    expect(res.body.user.tenantKey).toBe(f.tenantKey);
  });

  test("a sign-in code is mailed to a known e-mail and not to an unknown one", async () => {
    const known = fresh("smtp");
    await s.call("POST", "/api/v1/auth/sign-up", {
      json: { email: known.email, password: "Passw0rd!", displayName: "K", tenantKey: known.tenantKey },
    });
    const signUpCode = codeIn((await mailTo(known.email)).raw);
    await s.call("POST", "/api/v1/auth/sign-up/verify", { json: { email: known.email, code: signUpCode } });
    inbox.length = 0;
    const unknown = fresh("nobody");
    const a = await s.call("POST", "/api/v1/auth/sign-in/request-code", { json: { email: known.email } });
    const b = await s.call("POST", "/api/v1/auth/sign-in/request-code", { json: { email: unknown.email } });
    expect(Object.keys(a.body)).toEqual(Object.keys(b.body));
    const code = codeIn((await mailTo(known.email)).raw);
    const res = await s.call("POST", "/api/v1/auth/sign-in/code", { json: { email: known.email, tenantKey: known.tenantKey, code } });
    expect(res.status).toBe(200);
    await Bun.sleep(100);
    expect(inbox.some((m) => m.to.includes(unknown.email))).toBe(false);
  });
});
