#!/usr/bin/env bun
import { runDemo } from "./cli/demo";
import { PLATFORM_TERMS_USAGE, platformTermsCommand } from "./cli/platform-terms";
import { reindex } from "./cli/reindex";
import { loadConfig } from "./config";
import { startServer } from "./server";

const USAGE = `learnspace — multi-tenant learning-space server

Usage:
  learnspace serve [--port N] [--data-dir DIR] [--dev-codes]   start the server
  learnspace demo [--port N] [--data-dir DIR]                  serve a demo school (seeded once into the data dir; dev codes on)
  learnspace migrate [--data-dir DIR]                          create/migrate the platform file and every tenant file
  learnspace reindex [--data-dir DIR]                          rebuild the e-mail directory from the tenant files
  learnspace platform-terms list|create|update|set-current …  manage the platform terms (see below)

Environment: LEARNSPACE_PORT, LEARNSPACE_DATA_DIR, LEARNSPACE_DEV_CODES=1, LEARNSPACE_PUBLIC_URL,
LEARNSPACE_SMTP_URL, LEARNSPACE_SECRET, LEARNSPACE_IP_RATE_LIMIT, LEARNSPACE_TENANT_HANDLES.

${PLATFORM_TERMS_USAGE}`;

const [command = "serve", ...args] = process.argv.slice(2);
const config = loadConfig(args);

switch (command) {
  case "serve": {
    const server = startServer(config);
    console.log(`learnspace listening on ${server.url} (public URL ${server.rt.config.publicUrl}), data dir ${config.dataDir}`);
    if (config.devCodes) {
      console.warn(
        "WARNING: dev codes are ON: one-time codes are returned in API responses. Anyone can sign in as anyone. Never use this in production.",
      );
    }
    const shutdown = async () => {
      await server.stop();
      process.exit(0);
    };
    process.on("SIGINT", shutdown);
    process.on("SIGTERM", shutdown);
    break;
  }
  case "demo":
    runDemo(config).catch((e) => {
      console.error(e);
      process.exit(1);
    });
    break;
  case "migrate":
  case "reindex": {
    const result = reindex(config);
    console.log(`${result.tenants} tenant files migrated, ${result.entries} directory entries written`);
    break;
  }
  case "platform-terms":
    process.exit(platformTermsCommand(config, args));
    break;
  case "help":
  case "--help":
    console.log(USAGE);
    break;
  default:
    console.error(USAGE);
    process.exit(2);
}
