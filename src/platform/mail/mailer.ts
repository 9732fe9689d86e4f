import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Transporter } from "nodemailer";
import { nodeCrypto } from "../crypto";
import { currentRequestId } from "../http/request-context";

export type Mail = { to: string; subject: string; text: string; html: string; headers?: Record<string, string> };
export type Mailer = {
  /** Keeps the message (a 0600 file) before anything else; over SMTP it is then sent, and retried until it goes. */
  send(mail: Mail): Promise<void>;
  /** Messages waiting for SMTP delivery (0 without SMTP: the outbox file is the delivery). */
  pending(): number;
  /** Tries every queued message whose next attempt is due at `now` (the timer calls it). */
  retryDue(now?: number): Promise<void>;
  close(): void;
};

const FROM = "learnspace <no-reply@learnspace.local>";
/** Attempts before a message is moved to outbox/failed/: the 8th comes about 2 h after the first. */
const MAX_ATTEMPTS = 8;
const RETRY_BASE_MS = 60_000;
const RETRY_MAX_MS = 60 * 60_000;
const TICK_MS = 15_000;

type Queued = { mail: Mail; requestId: string | null; attempts: number; nextAttemptAt: number; createdAt: string };

/** The delay before attempt n+1 after n failed ones: 1, 2, 4 … minutes, at most an hour. */
export const backoffMs = (attempts: number) => Math.min(RETRY_BASE_MS * 2 ** (attempts - 1), RETRY_MAX_MS);

/** Who a message was for, in logs: a hash, never the address (logs travel further than the data). */
export const recipientHash = (to: string) => nodeCrypto().createHash("sha256").update(to.trim().toLowerCase()).digest("hex").slice(0, 16);

/** Codes and links sit in these files: only the server's user may read them. */
const writePrivate = (path: string, value: unknown) => writeFileSync(path, JSON.stringify(value, null, 2), { mode: 0o600 });

const fileName = () => `${Date.now()}-${Bun.randomUUIDv7()}.json`;

/**
 * Every message is first written to <data>/outbox/ (mode 0600). Without LEARNSPACE_SMTP_URL that
 * file is the delivery (offline appliances, demos, tests) and is announced in the log. With SMTP it
 * waits in outbox/pending/ until sent (then removed), retried with backoff across restarts; each
 * failure is logged with the request id and a hash of the recipient; after MAX_ATTEMPTS it moves to
 * outbox/failed/.
 */
export function createMailer(opts: { smtpUrl: string | null; outboxDir: string; log: (line: object) => void }): Mailer {
  if (!opts.smtpUrl) {
    return {
      async send(mail) {
        const name = fileName();
        writePrivate(join(opts.outboxDir, name), { from: FROM, ...mail, createdAt: new Date().toISOString() });
        opts.log({ event: "mail.outbox", to: recipientHash(mail.to), subject: mail.subject, file: name, requestId: currentRequestId() });
      },
      pending: () => 0,
      retryDue: async () => {},
      close() {},
    };
  }
  const smtpUrl = opts.smtpUrl;
  // nodemailer loads on the first message, not at start (docs/rules/performance.md#start).
  let transport: Transporter | null = null;
  const smtp = async () =>
    (transport ??= (await import("nodemailer")).default.createTransport({
      url: smtpUrl,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
    }));
  const pendingDir = join(opts.outboxDir, "pending");
  const failedDir = join(opts.outboxDir, "failed");
  mkdirSync(pendingDir, { recursive: true });
  mkdirSync(failedDir, { recursive: true });
  /** Queued messages by file name; `busy` while an attempt is under way. */
  const queue = new Map<string, Queued & { busy?: boolean }>();
  for (const name of readdirSync(pendingDir).filter((n) => n.endsWith(".json"))) {
    try {
      queue.set(name, JSON.parse(readFileSync(join(pendingDir, name), "utf8")) as Queued);
    } catch {
      renameSync(join(pendingDir, name), join(failedDir, name));
    }
  }

  async function attempt(name: string, q: Queued & { busy?: boolean }, now: number) {
    q.busy = true;
    try {
      await (await smtp()).sendMail({ from: FROM, ...q.mail });
      rmSync(join(pendingDir, name), { force: true });
      queue.delete(name);
      opts.log({
        event: "mail.sent",
        to: recipientHash(q.mail.to),
        subject: q.mail.subject,
        requestId: q.requestId,
        attempts: q.attempts + 1,
      });
    } catch (e) {
      q.attempts++;
      const line = {
        level: "error",
        event: "mail.failed",
        requestId: q.requestId,
        to: recipientHash(q.mail.to),
        subject: q.mail.subject,
        attempts: q.attempts,
        error: e instanceof Error ? e.message : String(e),
      };
      if (q.attempts >= MAX_ATTEMPTS) {
        renameSync(join(pendingDir, name), join(failedDir, name));
        queue.delete(name);
        opts.log({ ...line, gaveUp: true, file: `failed/${name}` });
      } else {
        q.nextAttemptAt = now + backoffMs(q.attempts);
        const { busy: _, ...stored } = q;
        writePrivate(join(pendingDir, name), stored);
        opts.log({ ...line, retryAt: new Date(q.nextAttemptAt).toISOString() });
      }
    } finally {
      q.busy = false;
    }
  }

  const retryDue = async (now = Date.now()) => {
    const due = [...queue].filter(([, q]) => !q.busy && q.nextAttemptAt <= now);
    await Promise.all(due.map(([name, q]) => attempt(name, q, now)));
  };
  const timer = setInterval(() => void retryDue(), TICK_MS);
  timer.unref();

  return {
    async send(mail) {
      const name = fileName();
      const q: Queued = {
        mail,
        requestId: currentRequestId() ?? null,
        attempts: 0,
        nextAttemptAt: Date.now(),
        createdAt: new Date().toISOString(),
      };
      writePrivate(join(pendingDir, name), q);
      queue.set(name, q);
      // The first attempt runs now but the caller does not wait for it: the message is kept either way.
      void attempt(name, q, Date.now());
    },
    pending: () => queue.size,
    retryDue,
    close() {
      clearInterval(timer);
      transport?.close();
    },
  };
}

/** How many messages wait for SMTP delivery (`learnspace_outbox_pending`). */
export const outboxPending = (rt: { mailer: Mailer }) => rt.mailer.pending();
