import type { Database } from "bun:sqlite";
import { FormatRegistry } from "@sinclair/typebox";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import "../../src/platform/http/schemas";
import type { TestServer } from "../helpers/server";

/** The codes of docs/rules/errors.md#codes, by status. */
export const CODES: Record<number, string[]> = {
  400: ["VALIDATION_FAILED", "INVALID_JSON", "UNKNOWN_SORT_FIELD", "INVALID_CODE", "INVALID_CURRENT_PASSWORD", "TENANT_REQUIRED"],
  401: ["UNAUTHENTICATED", "INVALID_CREDENTIALS", "SESSION_EXPIRED"],
  403: ["FORBIDDEN", "NO_TENANT", "SSO_ONLY"],
  404: ["NOT_FOUND"],
  409: ["ALREADY_EXISTS", "INVALID_STATE", "IN_USE", "DEADLINE_PASSED", "RESUBMIT_NOT_ALLOWED", "ATTEMPT_LIMIT", "EXIT_RESTRICTED"],
  413: ["PAYLOAD_TOO_LARGE"],
  415: ["UNSUPPORTED_MEDIA_TYPE"],
  429: ["RATE_LIMITED", "RESEND_TOO_SOON"],
  500: ["INTERNAL"],
  503: ["PROVIDER_UNAVAILABLE", "SHUTTING_DOWN", "SERVER_BUSY"],
};

/**
 * Columns a refused request may change by design: a wrong one-time code counts a try and, at the
 * fifth, voids the code; a wrong password counts toward the member's lock-out.
 */
const WRITTEN_ON_REFUSAL: Record<string, string[]> = {
  one_time_codes: ["failed_tries", "code_hash"],
  members: ["failed_logins", "locked_until"],
};

/** Tables the notification scheduler writes on its own clock, whatever request is in flight. */
const WRITTEN_IN_BACKGROUND = new Set(["notification_jobs", "notification_wakeups", "notifications"]);

function fileDigest(sqlite: Database) {
  const tables = sqlite.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as {
    name: string;
  }[];
  const hash = new Bun.CryptoHasher("sha1");
  for (const { name } of tables) {
    if (WRITTEN_IN_BACKGROUND.has(name)) continue;
    const skip = WRITTEN_ON_REFUSAL[name] ?? [];
    hash.update(name);
    const query = sqlite.query(`SELECT * FROM "${name}"`);
    const keep = query.columnNames.map((c) => !skip.includes(c));
    for (const row of query.values())
      hash.update(
        JSON.stringify(
          row.filter((_, i) => keep[i]),
          (_, v) => (typeof v === "bigint" ? `${v}` : v),
        ),
      );
  }
  return hash.digest("hex");
}

/**
 * Digests of every table of the platform file and of the given tenants' files. A digest is taken
 * again only when a connection's `total_changes()` moved since the last one (a cheap test that
 * nothing was written), so most refused requests cost no table scan.
 */
export function writeProbe(server: TestServer) {
  const serial = new WeakMap<Database, number>();
  let next = 0;
  let last = { key: "", digest: "" };
  const connections = (tenantIds: string[]) => {
    const out: [string, Database | null][] = [["platform", server.rt.platform.sqlite]];
    for (const id of tenantIds) {
      try {
        out.push([id, server.rt.tenants.use(id, (h) => h.sqlite)]);
      } catch {
        out.push([id, null]);
      }
    }
    return out;
  };
  return {
    digests: 0,
    /** The digest of the files now; the table scan is skipped when no connection changed a row. */
    state(tenantIds: string[]) {
      const conns = connections(tenantIds);
      const key = conns
        .map(([id, db]) => {
          if (!db) return `${id}:gone`;
          if (!serial.has(db)) serial.set(db, next++);
          return `${serial.get(db)}:${(db.query("SELECT total_changes() AS n").get() as { n: number }).n}`;
        })
        .join(",");
      if (key !== last.key) {
        this.digests++;
        last = { key, digest: conns.map(([id, db]) => (db ? fileDigest(db) : `${id}:gone`)).join(",") };
      }
      return last.digest;
    },
  };
}

/** Response-schema validators of the served document, by operation and status (refs resolved by ajv). */
export function responseValidators(doc: any) {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  const formats = new Set<string>();
  JSON.stringify(doc, (k, v) => {
    if (k === "format" && typeof v === "string") formats.add(v);
    return v;
  });
  for (const f of formats) {
    if (ajv.formats[f]) continue;
    const check = FormatRegistry.Get(f);
    ajv.addFormat(f, check ? { validate: (v: string) => check(v) } : true);
  }
  // `$id` fragments (`#/components/schemas/Problem`) would re-base refs; the pointers alone resolve.
  // Objects are closed: a field the document does not declare is a mismatch too (and may be a leak).
  const copy = JSON.parse(
    JSON.stringify(doc, (k, v) => {
      if (k === "$id") return undefined;
      if (
        v &&
        typeof v === "object" &&
        v.type === "object" &&
        v.properties &&
        v.additionalProperties === undefined &&
        !v.patternProperties
      ) {
        return { ...v, additionalProperties: false };
      }
      return v;
    }),
  );
  ajv.addSchema(copy, "doc");
  const cache = new Map<string, ReturnType<typeof ajv.compile>>();
  const esc = (s: string) => s.replace(/~/g, "~0").replace(/\//g, "~1");
  return (path: string, method: string, status: string, contentType: string) => {
    const key = `${path} ${method} ${status} ${contentType}`;
    let v = cache.get(key);
    if (!v) {
      v = ajv.compile({ $ref: `doc#/paths/${esc(path)}/${method}/responses/${status}/content/${esc(contentType)}/schema` });
      cache.set(key, v);
    }
    return v;
  };
}
