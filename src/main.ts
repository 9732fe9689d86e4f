#!/usr/bin/env bun
import { BACKUP_USAGE, backupCommand } from "./cli/backup";
import { runDemo } from "./cli/demo";
import { doctorCommand } from "./cli/doctor";
import { PLATFORM_TERMS_USAGE, platformTermsCommand } from "./cli/platform-terms";
import { reindex } from "./cli/reindex";
import { RESTORE_USAGE, restoreCommand } from "./cli/restore";
import { serveCommand } from "./cli/serve";
import { CommandError } from "./cli/snapshot";
import { TENANT_USAGE, tenantCommand } from "./cli/tenant";
import { versionCommand } from "./cli/version";
import { loadConfig } from "./config";
import { SchemaTooNewError } from "./platform/db/migrate";

const USAGE = `learnspace — multi-tenant learning-space server

Usage:
  learnspace serve [--port N] [--data-dir DIR] [--dev-codes]   start the server
  learnspace demo [--port N] [--data-dir DIR]                  serve a demo school (seeded once into the data dir; dev codes on)
  learnspace migrate [--data-dir DIR]                          create/migrate the platform file and every tenant file
  learnspace reindex [--data-dir DIR]                          rebuild the e-mail directory from the tenant files
  ${BACKUP_USAGE.padEnd(61)}online, consistent backup into DIR/learnspace-<UTC>/
  ${RESTORE_USAGE.padEnd(61)}verify, then restore into an empty data dir
  learnspace doctor [--data-dir DIR]                           check every file, the directory and the stored files (exit 1 on a problem)
  learnspace version                                           the binary's version and the schema versions it knows
  learnspace platform-terms list|create|update|set-current …  manage the platform terms (see below)
  learnspace tenant list|export|import|delete …               move and remove tenants (see below)

Every command takes --data-dir (default ./data) and exits non-zero with a one-line reason on failure.

Environment: LEARNSPACE_PORT, LEARNSPACE_DATA_DIR, LEARNSPACE_DEV_CODES=1, LEARNSPACE_PUBLIC_URL,
LEARNSPACE_SMTP_URL, LEARNSPACE_SECRET, LEARNSPACE_IP_RATE_LIMIT, LEARNSPACE_TENANT_HANDLES,
LEARNSPACE_BACKUP_DIR, LEARNSPACE_BACKUP_EVERY (24h; 30m, 6h …), LEARNSPACE_BACKUP_KEEP (7),
LEARNSPACE_METRICS_TOKEN (unset: /metrics for loopback clients only), LEARNSPACE_METRICS=0 (off).

${TENANT_USAGE}

${PLATFORM_TERMS_USAGE}`;

async function run(command: string, args: string[]): Promise<number | null> {
  const config = loadConfig(args);
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
      console.log(`${result.tenants} tenant files migrated, ${result.entries} directory entries written`);
      return 0;
    }
    case "backup":
      return backupCommand(config, args);
    case "restore":
      return restoreCommand(config, args);
    case "tenant":
      return tenantCommand(config, args);
    case "doctor":
      return doctorCommand(config);
    case "version":
    case "--version":
      return versionCommand();
    case "platform-terms":
      return platformTermsCommand(config, args);
    case "help":
    case "--help":
      console.log(USAGE);
      return 0;
    default:
      console.error(USAGE);
      return 2;
  }
}

const [command = "serve", ...args] = process.argv.slice(2);
// No top-level await: the compiled binary is bytecode (CommonJS).
run(command, args).then(
  (code) => {
    if (code !== null) process.exit(code);
  },
  (e) => {
    // Expected failures are one line; anything else keeps its stack for a bug report.
    if (e instanceof CommandError || e instanceof SchemaTooNewError) console.error(`learnspace ${command}: ${e.message}`);
    else console.error(e);
    process.exit(1);
  },
);
