import { writeFileSync } from "node:fs";
import { join } from "node:path";
import nodemailer from "nodemailer";

export type Mail = { to: string; subject: string; text: string; html: string };
export type Mailer = { send(mail: Mail): Promise<void> };

const FROM = "learnspace <no-reply@learnspace.local>";

/**
 * SMTP through nodemailer when LEARNSPACE_SMTP_URL is set; otherwise each message is written to
 * <data>/outbox/ as JSON and announced in the log (offline appliances, demos, tests).
 */
export function createMailer(opts: { smtpUrl: string | null; outboxDir: string; log: (line: object) => void }): Mailer {
  if (opts.smtpUrl) {
    const transport = nodemailer.createTransport(opts.smtpUrl);
    return {
      async send(mail) {
        await transport.sendMail({ from: FROM, ...mail });
        opts.log({ event: "mail.sent", to: mail.to, subject: mail.subject });
      },
    };
  }
  return {
    async send(mail) {
      const name = `${Date.now()}-${Bun.randomUUIDv7()}.json`;
      writeFileSync(join(opts.outboxDir, name), JSON.stringify({ from: FROM, ...mail, createdAt: new Date().toISOString() }, null, 2));
      opts.log({ event: "mail.outbox", to: mail.to, subject: mail.subject, file: name });
    },
  };
}
