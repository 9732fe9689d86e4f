import { afterAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { SMTPServer } from "smtp-server";
import { outboxPending, recipientHash } from "../src/platform/mail/mailer";
import { fresh } from "./helpers/auth";
import { eventually, useServer } from "./helpers/server";

// A port with nothing listening on it yet: the SMTP server there starts only later in the test.
const inbox: string[][] = [];
const smtp = new SMTPServer({
  secure: false,
  authOptional: true,
  disabledCommands: ["STARTTLS"],
  logger: false,
  onData(stream, session, done) {
    stream.on("data", () => {});
    stream.on("end", () => {
      inbox.push(session.envelope.rcptTo.map((r) => r.address));
      done();
    });
  },
});
const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
const port = probe.port;
probe.stop(true);
afterAll(() => new Promise<void>((resolve) => smtp.close(() => resolve())));

const down = useServer({ smtpUrl: `smtp://127.0.0.1:${port}?ignoreTLS=true`, devCodes: false });
const offline = useServer({ devCodes: false });

const mode = (path: string) => statSync(path).mode & 0o777;

describe("outgoing mail is kept and retried", () => {
  test("with SMTP unreachable, sign-up answers 201, the message waits in the outbox (0600), the failure is logged with request id and a recipient hash", async () => {
    const lines: Record<string, unknown>[] = [];
    const rt = down.server.rt;
    const log = rt.log;
    rt.log = (line) => lines.push(line as Record<string, unknown>);
    const f = fresh("down");
    try {
      const up = await down.call("POST", "/api/v1/auth/sign-up", {
        json: { email: f.email, password: "Passw0rd!", displayName: "Mail User" },
        headers: { "x-request-id": "req-mail-1" },
      });
      expect(up.status).toBe(201);
      await eventually(() => lines.some((l) => l.event === "mail.failed"));
    } finally {
      rt.log = log;
    }
    const failed = lines.find((l) => l.event === "mail.failed");
    expect(failed).toMatchObject({ requestId: "req-mail-1", to: recipientHash(f.email), attempts: 1 });
    expect(JSON.stringify(lines)).not.toContain(f.email);
    expect(outboxPending(rt)).toBe(1);
    const dir = join(down.server.dataDir, "outbox", "pending");
    const files = readdirSync(dir);
    expect(files).toHaveLength(1);
    expect(mode(join(dir, files[0] as string))).toBe(0o600);
    expect(JSON.parse(readFileSync(join(dir, files[0] as string), "utf8")).mail.to).toBe(f.email);

    // The SMTP server comes up; the next due retry delivers the message and empties the queue.
    await new Promise<void>((resolve) => smtp.listen(port, "127.0.0.1", () => resolve()));
    await rt.mailer.retryDue(Date.now() + 60 * 60_000);
    expect(inbox).toEqual([[f.email]]);
    expect(outboxPending(rt)).toBe(0);
    expect(readdirSync(dir)).toEqual([]);
  });

  test("without SMTP, outbox files holding codes are readable by the server's user only", async () => {
    const f = fresh("off");
    const up = await offline.call("POST", "/api/v1/auth/sign-up", {
      json: { email: f.email, password: "Passw0rd!", displayName: "Off Line" },
    });
    expect(up.status).toBe(201);
    const dir = join(offline.server.dataDir, "outbox");
    await eventually(() => readdirSync(dir).length > 0);
    for (const name of readdirSync(dir)) expect(mode(join(dir, name))).toBe(0o600);
    expect(outboxPending(offline.server.rt)).toBe(0);
  });
});
