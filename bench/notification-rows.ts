// What a fan-out's rows cost by their shape (docs/rules/notifications.md#fan-out): `n` recipients of one
// event written in one transaction, `rounds` times into a growing table, for
//   today: the `notifications` table of the tenant migrations (the event's text on every row, six indexes);
//   thin:  the text once per event (`notification_events`), one small row per recipient, the same indexes;
//   thin4: thin, with the record and purge indexes on the events only (four indexes per recipient row).
// Each shape has its own file with the pragmas of every tenant file (openSqlite); foreign keys are off
// (no member rows are made). Prints a table, then the JSON.
// Usage: bun bench/notification-rows.ts [--n 1000] [--rounds 30]

import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { applyMigrations } from "../src/platform/db/migrate";
import { tenantMigrations } from "../src/platform/db/migrations.gen";
import { closeSqlite, openSqlite } from "../src/platform/db/sqlite";
import { percentile, round } from "./lib";

const arg = (name: string, d: number) => Number(process.argv[process.argv.indexOf(`--${name}`) + 1] || d) || d;
const n = arg("n", 1000);
const rounds = arg("rounds", 30);
const dir = mkdtempSync(join(tmpdir(), "ls-bench-notif-rows-"));

const EVENTS = `CREATE TABLE notification_events (id text PRIMARY KEY, kind text NOT NULL, space_id text, record_type text NOT NULL,
  record_id text NOT NULL, title_ko text NOT NULL, title_en text NOT NULL, body_preview text NOT NULL, url text NOT NULL,
  dedupe_key text NOT NULL UNIQUE, created_at integer NOT NULL);
CREATE INDEX notification_events_record_idx ON notification_events (space_id, record_type, record_id);
CREATE TABLE notification_items (id text PRIMARY KEY, event_id text NOT NULL REFERENCES notification_events (id) ON DELETE CASCADE,
  member_id text NOT NULL, created_at integer NOT NULL, read_at integer, mail_at integer);
CREATE UNIQUE INDEX notification_items_member_event_idx ON notification_items (member_id, event_id);
CREATE INDEX notification_items_list_idx ON notification_items (member_id, created_at, id);
CREATE INDEX notification_items_mail_idx ON notification_items (mail_at, member_id) WHERE mail_at IS NOT NULL;
CREATE INDEX notification_items_event_idx ON notification_items (event_id);`;
const MORE = `CREATE INDEX notification_items_unread_idx ON notification_items (member_id, created_at, id) WHERE read_at IS NULL;
CREATE INDEX notification_items_created_idx ON notification_items (created_at);`;

const members = Array.from({ length: n }, () => Bun.randomUUIDv7());
const text = {
  titleKo: "새 공지: 다음 주 수업 일정 변경 안내",
  titleEn: "New notice: next week's schedule changes",
  body: "가".repeat(200),
  url: "/spaces/0190aaaa-bbbb-7ccc-8ddd-eeeeffff0000/posts/0190aaaa-bbbb-7ccc-8ddd-eeeeffff0001",
};

/** Milliseconds of each round's transaction, and the file's size (with its WAL) at the end. */
function measure(name: string, schema: string | null, write: (db: ReturnType<typeof openSqlite>, recordId: string, now: number) => void) {
  const path = join(dir, `${name}.sqlite`);
  const db = openSqlite(path);
  if (schema) db.exec(schema);
  else applyMigrations(db, tenantMigrations, name);
  db.exec("PRAGMA foreign_keys = OFF");
  const times: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const t0 = performance.now();
    db.transaction(() => write(db, Bun.randomUUIDv7(), Date.now() + r))();
    times.push(performance.now() - t0);
  }
  const size = statSync(path).size + (statSync(`${path}-wal`, { throwIfNoEntry: false })?.size ?? 0);
  closeSqlite(db);
  times.sort((a, b) => a - b);
  return { p50: round(percentile(times, 0.5)), p99: round(percentile(times, 0.99)), fileMiB: round(size / 1048576) };
}

function today(db: ReturnType<typeof openSqlite>, recordId: string, now: number) {
  const key = `POST:POST:${recordId}:`;
  const rows = members.map((m) => [Bun.randomUUIDv7(), m, "POST", text.titleKo, text.titleEn, key, now + 3_600_000]);
  db.query(`INSERT INTO notifications (id, member_id, kind, space_id, record_type, record_id, title_ko, title_en, body_preview, url,
      dedupe_key, created_at, read_at, mail_at)
    SELECT value ->> 0, value ->> 1, value ->> 2, 's', 'POST', ?1, value ->> 3, value ->> 4, ?2, ?3, value ->> 5, ?4, NULL, value ->> 6
    FROM json_each(?5) WHERE true ON CONFLICT (member_id, dedupe_key) DO NOTHING RETURNING id, member_id, mail_at`).all(
    recordId,
    text.body,
    text.url,
    now,
    JSON.stringify(rows),
  );
}

function thin(db: ReturnType<typeof openSqlite>, recordId: string, now: number) {
  const key = `POST:POST:${recordId}:`;
  db.query(
    `INSERT INTO notification_events VALUES (?1, 'POST', 's', 'POST', ?2, ?3, ?4, ?5, ?6, ?7, ?8) ON CONFLICT (dedupe_key) DO NOTHING`,
  ).run(Bun.randomUUIDv7(), recordId, text.titleKo, text.titleEn, text.body, text.url, key, now);
  const rows = members.map((m) => [Bun.randomUUIDv7(), m, now + 3_600_000]);
  db.query(`INSERT INTO notification_items (id, event_id, member_id, created_at, read_at, mail_at)
    SELECT value ->> 0, (SELECT id FROM notification_events WHERE dedupe_key = ?1), value ->> 1, ?2, NULL, value ->> 2
    FROM json_each(?3) WHERE true ON CONFLICT (member_id, event_id) DO NOTHING RETURNING id, member_id, mail_at`).all(
    key,
    now,
    JSON.stringify(rows),
  );
}

try {
  const results = {
    recipients: n,
    rounds,
    today: measure("today", null, today),
    thin: measure("thin", `${EVENTS}\n${MORE}`, thin),
    thin4: measure("thin4", EVENTS, thin),
  };
  console.log(`| shape (${n} recipients an event, ${rounds} events) | transaction p50 / p99 | file |`);
  console.log("| --- | --- | --- |");
  for (const shape of ["today", "thin", "thin4"] as const) {
    const r = results[shape];
    console.log(`| ${shape} | ${r.p50} / ${r.p99} ms | ${r.fileMiB} MiB |`);
  }
  console.log(JSON.stringify(results, null, 2));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
