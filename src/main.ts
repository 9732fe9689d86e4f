#!/usr/bin/env bun
import { BACKUP_USAGE, backupCommand } from "./cli/backup";
import { CLUSTER_USAGE, clusterCommand } from "./cli/cluster";
import { runDemo } from "./cli/demo";
import { doctorCommand } from "./cli/doctor";
import { PLATFORM_TERMS_USAGE, platformTermsCommand } from "./cli/platform-terms";
import { reindex } from "./cli/reindex";
import { REPLICA_RESTORE_USAGE } from "./cli/replica-restore";
import { RESTORE_USAGE, restoreCommand } from "./cli/restore";
import { serveCommand } from "./cli/serve";
import { CommandError } from "./cli/snapshot";
import { STORAGE_USAGE, storageCommand } from "./cli/storage";
import { TENANT_USAGE, tenantCommand } from "./cli/tenant";
import { versionCommand } from "./cli/version";
import { ConfigError, loadConfig } from "./config";
import { SchemaTooNewError } from "./platform/db/migrate";
import { normalJitPolicy } from "./platform/jit";
import { privateFileModes } from "./platform/modes";

const USAGE = `learnspace — multi-tenant learning-space server

Usage:
  learnspace serve [--port N] [--data-dir DIR] [--dev-codes]   start the server
  learnspace demo [--port N] [--data-dir DIR]                  serve a demo school (seeded once into the data dir; dev codes on)
  learnspace migrate [--data-dir DIR]                          create/migrate the platform file and every tenant file
  learnspace reindex [--data-dir DIR]                          rebuild the e-mail directory from the tenant files
  ${BACKUP_USAGE.padEnd(61)}online, consistent backup into DIR/learnspace-<UTC>/
  ${RESTORE_USAGE.padEnd(61)}verify, then restore into an empty data dir
  ${REPLICA_RESTORE_USAGE}
                                                               point-in-time restore of everything (empty data dir) or one tenant from the replica
  learnspace doctor [--data-dir DIR]                           check every file, the directory and the stored files (exit 1 on a problem)
  ${STORAGE_USAGE}
                                                               copy every stored file to another store, verified by sha256 (resumable)
  learnspace version                                           the binary's version and the schema versions it knows
  learnspace platform-terms list|create|update|set-current …  manage the platform terms (see below)
  learnspace tenant list|export|import|delete …               move and remove tenants (see below)

Every command takes --data-dir (default ./data) and exits non-zero with a one-line reason on failure.

Environment: LEARNSPACE_PORT, LEARNSPACE_DATA_DIR, LEARNSPACE_DEV_CODES=1, LEARNSPACE_PUBLIC_URL,
LEARNSPACE_SMTP_URL, LEARNSPACE_SECRET, LEARNSPACE_IP_RATE_LIMIT, LEARNSPACE_MEMORY_MB,
LEARNSPACE_SIGNIN_QUEUE, LEARNSPACE_TENANT_HANDLES,
LEARNSPACE_BACKUP_DIR, LEARNSPACE_BACKUP_EVERY (24h; 30m, 6h …), LEARNSPACE_BACKUP_KEEP (7),
LEARNSPACE_METRICS_TOKEN (unset: /metrics for loopback clients only), LEARNSPACE_METRICS=0 (off),
LEARNSPACE_TRUSTED_PROXIES, LEARNSPACE_CORS_ORIGINS, LEARNSPACE_REQUEST_TIMEOUT, LEARNSPACE_SOCIAL_A_*/_B_*,
LEARNSPACE_CLUSTER_ETCD, LEARNSPACE_CLUSTER_NODE, LEARNSPACE_CLUSTER_URL, LEARNSPACE_CLUSTER_DOMAIN,
LEARNSPACE_CLUSTER_HAPROXY, LEARNSPACE_CLUSTER_HAPROXY_MAP, LEARNSPACE_CLUSTER_LEASE_TTL (5 s),
LEARNSPACE_STORAGE_URL (unset: DIR/files; s3://BUCKET[/PREFIX]?endpoint=URL&region=R, credentials from
AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY or S3_ACCESS_KEY_ID/S3_SECRET_ACCESS_KEY),
LEARNSPACE_REPLICA_URL (unset: no replication; an s3:// URL like the storage one: serve runs Litestream on every
SQLite file), LEARNSPACE_REPLICA_SYNC (1s), LEARNSPACE_LITESTREAM_BIN (else node_modules/@flydotio, else PATH).
A bad setting stops the command with one line naming it and exit code 2.

${TENANT_USAGE}

${CLUSTER_USAGE}

${PLATFORM_TERMS_USAGE}`;

/** Commands with options of their own: only their unknown flags are left to them, not refused. */
const OWN_OPTIONS = new Set(["platform-terms", "backup", "restore", "tenant", "storage", "cluster"]);

async function run(command: string, args: string[]): Promise<number | null> {
  const config = loadConfig(args, process.env, {}, !OWN_OPTIONS.has(command));
  switch (command) {
    case "serve":
      serveCommand(config);
      return null;
    case "demo":
      await runDemo(config);
      return null;
    case "migrate":
    case "reindex": {
      const result = reindex(config);
      for (const f of result.failed) console.error(`learnspace: tenant ${f.tenantKey}: ${f.file}: ${f.reason}`);
      console.log(`${result.tenants} tenant files migrated, ${result.entries} directory entries written`);
      if (result.failed.length) {
        console.error(`learnspace: ${result.failed.length} tenant file(s) could not be migrated`);
        return 1;
      }
      return 0;
    }
    case "backup":
      return backupCommand(config, args);
    case "restore":
      return restoreCommand(config, args);
    case "tenant":
      return tenantCommand(config, args);
    case "storage":
      return storageCommand(config, args);
    case "doctor":
      return doctorCommand(config);
    case "cluster":
      return clusterCommand(config, args);
    case "version":
    case "--version":
      return versionCommand();
    case "platform-terms":
      return platformTermsCommand(config, args);
    default:
      console.error(USAGE);
      return 2;
  }
}

// Everything written under the data dir is private to this user (docs/rules/trust.md#files-on-disk).
privateFileModes();
const [command = "serve", ...args] = process.argv.slice(2);
if (command === "help" || command === "--help") {
  // Before any setting is read: help works whatever the environment.
  console.log(USAGE);
  process.exit(0);
}
// The modules are evaluated: a command's own work gets the normal JIT (`serve` after its first answers, src/server.ts).
if (command !== "serve") normalJitPolicy();
// No top-level await: the compiled binary is bytecode (CommonJS).
run(command, args).then(
  (code) => {
    if (code !== null) process.exit(code);
  },
  (e) => {
    // A bad setting (or a data dir in use) is one line and exit 2; other expected failures one line and exit 1;
    // anything else keeps its stack for a bug report.
    if (e instanceof ConfigError) {
      console.error(`learnspace: ${e.message}`);
      process.exit(2);
    }
    if (e instanceof CommandError || e instanceof SchemaTooNewError) console.error(`learnspace ${command}: ${e.message}`);
    else console.error(e);
    process.exit(1);
  },
);
