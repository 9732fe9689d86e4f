import { join } from "node:path";
import type { Config } from "../config";
import type { MemberResolver } from "./auth/actor";
import { createTokens, type Tokens } from "./auth/tokens";
import { openPlatformDb, type PlatformDb } from "./db/platform-db";
import { closeSqlite } from "./db/sqlite";
import { createTenantStore, type TenantStore } from "./db/tenant-store";
import { type Cursors, createCursors } from "./http/cursor";
import { createMailer, type Mailer } from "./mail/mailer";
import { loadSecret } from "./secret";

/** Everything a request may need beyond its own input; built once per server. */
export type Runtime = {
  config: Config;
  secret: string;
  platform: PlatformDb;
  tenants: TenantStore;
  cursors: Cursors;
  tokens: Tokens;
  mailer: Mailer;
  resolveMember: MemberResolver;
  log(line: object): void;
  /** Set on SIGTERM/SIGINT: requests that arrive while in-flight ones drain get 503 SHUTTING_DOWN. */
  draining: boolean;
  /** Requests accepted and not yet answered (what a shutdown waits for). */
  inFlight: number;
  close(): void;
};

export function createRuntime(config: Config, resolveMember: MemberResolver): Runtime {
  const platform = openPlatformDb(config.dataDir);
  const secret = loadSecret(config.dataDir, config.secret);
  const tenants = createTenantStore(config.dataDir, config.tenantHandles);
  const log = config.quiet ? () => {} : (line: object) => console.log(JSON.stringify({ time: new Date().toISOString(), ...line }));
  return {
    config,
    secret,
    platform,
    tenants,
    cursors: createCursors(secret),
    tokens: createTokens(secret),
    mailer: createMailer({ smtpUrl: config.smtpUrl, outboxDir: join(config.dataDir, "outbox"), log }),
    resolveMember,
    log,
    draining: false,
    inFlight: 0,
    close() {
      tenants.closeAll();
      closeSqlite(platform.sqlite);
    },
  };
}
