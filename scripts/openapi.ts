// Writes openapi.json at the repo root from the running app's routes; `--check` fails when the
// committed file differs (generated artefacts are committed and checked).
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pkg from "../package.json" with { type: "json" };
import { createApp } from "../src/app";
import { loadConfig } from "../src/config";
import { buildOpenApi } from "../src/platform/http/openapi";

const dataDir = mkdtempSync(join(tmpdir(), "learnspace-openapi-"));
const { app, rt } = createApp(loadConfig([], { LEARNSPACE_PUBLIC_URL: "http://localhost:3000" }, { dataDir, quiet: true }));
const doc = `${JSON.stringify(buildOpenApi(app, { title: "learnspace", version: pkg.version }), null, 2)}\n`;
rt.close();
rmSync(dataDir, { recursive: true, force: true });
const out = join(import.meta.dir, "..", "openapi.json");
if (process.argv.includes("--check")) {
  if (!existsSync(out) || readFileSync(out, "utf8") !== doc) {
    console.error("openapi.json is out of date: run `npm run openapi` and commit it");
    process.exit(1);
  }
  console.log("openapi.json is current");
} else {
  writeFileSync(out, doc);
  console.log("wrote openapi.json");
}
