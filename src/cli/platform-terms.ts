import type { Config } from "../config";
import { platformTermTables } from "../modules/terms/platform-tables";
import { createTerm, listTerms, setCurrentTermVersion, updateTerm } from "../modules/terms/service";
import { openPlatformDb } from "../platform/db/platform-db";
import { Problem } from "../platform/http/errors";

export const PLATFORM_TERMS_USAGE = `Platform terms (shown to every account, consented with scope "platform"):
  learnspace platform-terms list
  learnspace platform-terms create TOPIC [--essential true|false] [--visible true|false] [--order N]
                                         [--ttl-days N|null] [--title-ko T] [--title-en T] [--url-ko U] [--url-en U]
      a new TOPIC starts at version 1; an existing one gets version n+1, which becomes current
  learnspace platform-terms update TOPIC [same options] [--active true|false]   edits the current version
  learnspace platform-terms set-current TOPIC VERSION`;

const GLOBAL_OPTIONS = ["data-dir", "port"];
const OPTIONS = ["essential", "visible", "order", "ttl-days", "title-ko", "title-en", "url-ko", "url-en", "active"];

function parseOptions(args: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (!arg.startsWith("--")) throw new Error(`unexpected argument "${arg}"`);
    const eq = arg.indexOf("=");
    const name = eq >= 0 ? arg.slice(2, eq) : arg.slice(2);
    // The server's own flags (read by loadConfig) may sit among ours.
    if (name === "dev-codes") continue;
    if (GLOBAL_OPTIONS.includes(name)) {
      if (eq < 0) i++;
      continue;
    }
    if (!OPTIONS.includes(name)) throw new Error(`unknown option --${name}`);
    const value = eq >= 0 ? arg.slice(eq + 1) : args[++i];
    if (value === undefined) throw new Error(`--${name} needs a value`);
    out[name] = value;
  }
  return out;
}

const bool = (name: string, v: string | undefined) => {
  if (v === undefined) return undefined;
  if (v !== "true" && v !== "false") throw new Error(`--${name} must be true or false`);
  return v === "true";
};
const int = (name: string, v: string | undefined, min: number, max: number) => {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`--${name} must be an integer ${min}..${max}`);
  return n;
};

function fields(o: Record<string, string>) {
  const ttl = o["ttl-days"];
  return {
    isEssential: bool("essential", o.essential),
    isVisible: bool("visible", o.visible),
    order: int("order", o.order, 0, 9999),
    consentTtlDays: ttl === undefined ? undefined : ttl === "null" ? null : int("ttl-days", ttl, 1, 36500),
    ...(o["title-ko"] !== undefined || o["title-en"] !== undefined ? { title: { ko: o["title-ko"] ?? "", en: o["title-en"] ?? "" } } : {}),
    ...(o["url-ko"] !== undefined || o["url-en"] !== undefined ? { documentUrl: { ko: o["url-ko"] ?? "", en: o["url-en"] ?? "" } } : {}),
  };
}

const strip = <T extends object>(o: T) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

/**
 * `learnspace platform-terms <list|create|update|set-current> …`: the operator manages platform
 * terms here (there is no API for them). Prints the resulting terms as JSON; returns the exit code.
 */
export function platformTermsCommand(config: Config, args: string[], out: (line: string) => void = console.log): number {
  const [sub, topic, ...rest] = args;
  if (sub === "set-current") {
    // VERSION is positional; drop the server's flags around it.
    const positional = rest.filter((a, i) => !a.startsWith("--") && !GLOBAL_OPTIONS.some((g) => rest[i - 1] === `--${g}`));
    rest.splice(0, rest.length, ...positional);
  }
  const platform = openPlatformDb(config.dataDir);
  try {
    const db = platform.db;
    let result: unknown;
    if (sub === "list") {
      result = listTerms(db, platformTermTables);
    } else if (sub === "create" && topic) {
      if (!/^[A-Z0-9_]{1,50}$/.test(topic)) throw new Error("TOPIC must be 1..50 uppercase letters, digits or underscores");
      const o = parseOptions(rest);
      if (o.active !== undefined) throw new Error("--active applies to update only");
      result = createTerm(db, platformTermTables, strip({ topic, ...fields(o) }));
    } else if (sub === "update" && topic) {
      const o = parseOptions(rest);
      result = updateTerm(db, platformTermTables, topic, strip({ ...fields(o), isActive: bool("active", o.active) }));
    } else if (sub === "set-current" && topic && rest.length === 1) {
      result = setCurrentTermVersion(db, platformTermTables, topic, int("VERSION", rest[0], 1, Number.MAX_SAFE_INTEGER) as number);
    } else {
      out(PLATFORM_TERMS_USAGE);
      return 2;
    }
    out(JSON.stringify(result, null, 2));
    return 0;
  } catch (e) {
    const message =
      e instanceof Problem
        ? e.status === 404
          ? "no such topic"
          : (e.errors?.map((x) => `${x.field} ${x.message}`).join("; ") ?? e.message)
        : (e as Error).message;
    out(`error: ${message}`);
    return 1;
  } finally {
    platform.sqlite.close();
  }
}
