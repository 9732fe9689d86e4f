import { join } from "node:path";
import type { Config } from "../config";
import type { MemberResolver } from "./auth/actor";
import { limitPasswordWork } from "./auth/password";
import { createTokens, type Tokens } from "./auth/tokens";
import { enableGroupCommit } from "./db/group-commit";
import { tenantBudget } from "./db/memory-budget";
import { openPlatformDb, type PlatformDb } from "./db/platform-db";
import { closeSqlite, walAutocheckpoint } from "./db/sqlite";
import { createTenantStore, type TenantStore } from "./db/tenant-store";
import { openFileStore } from "./files/open-store";
import type { FileStore } from "./files/store";
import { type Cursors, createCursors } from "./http/cursor";
import { createLog, silentLog } from "./log";
import { createMailer, type Mailer } from "./mail/mailer";
import { privateFileModes, tightenModes } from "./modes";
import type { Replication } from "./replica/supervisor";
import { loadSecret } from "./secret";

/** Everything a request may need beyond its own input; built once per server. */
export type Runtime = {
  config: Config;
  secret: string;
  platform: PlatformDb;
  tenants: TenantStore;
  /** Stored files' bytes, local or S3 (docs/rules/storage.md#one-interface). */
  files: FileStore;
  cursors: Cursors;
  tokens: Tokens;
  mailer: Mailer;
  resolveMember: MemberResolver;
  log(line: object): void;
  /** The clock of time-driven work (schedules, digests); tests replace it to move time without sleeping. */
  now: () => number;
  /** `serve`'s Litestream when LEARNSPACE_REPLICA_URL is set (docs/rules/replication.md), else null. */
  replication: Replication | null;
  /**
   * The public URL of one school: LEARNSPACE_PUBLIC_URL, or in cluster mode with a domain
   * `<scheme>://<key>.<domain>`, so that links in mails and SSO callbacks reach the school's node
   * (docs/rules/cluster.md#routing). By key, or by id (a map lookup, never a query).
   */
  schoolUrl(tenant: { key?: string; id?: string }): string;
  /** What the file collector did, for `/metrics` (docs/rules/storage.md#file-collector). */
  fileCollection: FileCollectionStats;
  /** Set on SIGTERM/SIGINT: requests that arrive while in-flight ones drain get 503 SHUTTING_DOWN. */
  draining: boolean;
  /** Requests accepted and not yet answered (what a shutdown waits for). */
  inFlight: number;
  /**
   * The listening HTTP server (null before listen, and for `app.handle` in process). Hooks read it
   * here, not from the context: a hook that takes `server` makes every route define it per request
   * (docs/rules/performance.md#per-request-work).
   */
  server(): HttpServer | null;
  close(): void;
};

/** What hooks use of Bun's server: the peer address, and a request's timeout. */
export type HttpServer = { requestIP(r: Request): { address: string } | null; timeout(r: Request, seconds: number): void };

export type FileCollectionStats = {
  /** When the last pass ended (ms), null before the first. */
  lastRunAt: number | null;
  removedFiles: number;
  removedBytes: number;
  /** Ready files no record attaches, kept until their grace period ends (as of the last pass). */
  waiting: number;
};

/** `groupCommit`: the server's writes share commits (db/group-commit.ts); CLI commands and scripts commit alone. */
export function createRuntime(config: Config, resolveMember: MemberResolver, opts: { groupCommit?: boolean } = {}): Runtime {
  privateFileModes();
  // Litestream checkpoints the files it replicates (docs/rules/replication.md#checkpoints).
  const autocheckpoint = walAutocheckpoint(config.replicaUrl !== null);
  const platform = openPlatformDb(config.dataDir, autocheckpoint);
  tightenModes(config.dataDir);
  if (opts.groupCommit) enableGroupCommit(platform.sqlite);
  const secret = loadSecret(config.dataDir, config.secret);
  limitPasswordWork({ queue: config.signinQueue });
  const tenants = createTenantStore(config.dataDir, tenantBudget(config.memoryMb, config.tenantHandles), {
    ...opts,
    autocheckpoint,
    inFlight: () => rt.inFlight,
  });
  const log = config.quiet ? silentLog : createLog();
  // The mailer logs through rt.log, so that a replaced log (tests, a future log sink) sees its lines.
  const mailer = createMailer({ smtpUrl: config.smtpUrl, outboxDir: join(config.dataDir, "outbox"), log: (line) => rt.log(line) });
  const rt: Runtime = {
    config,
    secret,
    platform,
    tenants,
    files: openFileStore(config.dataDir, config.storageUrl),
    cursors: createCursors(secret),
    tokens: createTokens(secret),
    mailer,
    resolveMember,
    log,
    now: () => Date.now(),
    replication: null,
    schoolUrl: () => rt.config.publicUrl,
    fileCollection: { lastRunAt: null, removedFiles: 0, removedBytes: 0, waiting: 0 },
    draining: false,
    inFlight: 0,
    server: () => null,
    close() {
      mailer.close();
      tenants.closeAll();
      closeSqlite(platform.sqlite);
    },
  };
  return rt;
}
