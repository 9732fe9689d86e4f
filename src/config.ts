import { resolve } from "node:path";
import { parseS3Url } from "./platform/files/s3-url";
import { isIP } from "./platform/ip";

/** Every setting of the server, from flags first, then env, then defaults (docs/rules/runtime.md#settings). */
export type Config = {
  port: number;
  dataDir: string;
  devCodes: boolean;
  publicUrl: string;
  smtpUrl: string | null;
  secret: string | null;
  ipRateLimit: number;
  /** Comments, messages and participant posts one member may write a minute (0 = no limit). */
  communityRateLimit: number;
  /** The memory the server aims to stay within (MiB); tenant-file handles and their caches follow from it. */
  memoryMb: number;
  /** Password hashes that may wait for a core before more sign-ins are shed with 503 SERVER_BUSY. */
  signinQueue: number;
  /** Open tenant-file handles; null = as many as the memory budget allows. */
  tenantHandles: number | null;
  quiet: boolean;
  /** Peers whose X-Forwarded-For is believed: exact addresses and CIDR blocks. */
  trustedProxies: string[];
  /** Origins a browser may call the API from (CORS); empty = CORS off. */
  corsOrigins: string[];
  /** Seconds a request may take to arrive and be answered (an upload: may stall without a byte). */
  requestTimeout: number;
  /** Platform-wide OpenID Connect providers (docs/rules/sign-in.md#openid-connect); checked where used, not here. */
  social: SocialProviders;
  /** Scheduled backups (docs/operating.md#scheduled): folder (null = off), interval in ms, how many to keep. */
  backupDir: string | null;
  backupEveryMs: number;
  backupKeep: number;
  metricsToken: string | null;
  /** GET /metrics and the per-request series; LEARNSPACE_METRICS=0 turns both off. */
  metrics: boolean;
  /** Where stored files live: an s3:// URL, or null for `<dataDir>/files` (docs/rules/storage.md#s3-urls). */
  storageUrl: string | null;
  /** Continuous replication of every SQLite file with Litestream: an s3:// URL, or null = off (docs/rules/replication.md). */
  replicaUrl: string | null;
  /** How often Litestream ships each file's new WAL frames to the replica (the RPO's bound). */
  replicaSyncMs: number;
  /** Who may create a tenant by signUp (docs/rules/trust.md#who-may-create-a-tenant). */
  tenantSignup: "first" | "open" | "closed";
  /** Hosts and CIDR blocks a server-side fetch may reach although private (docs/rules/trust.md#server-side-fetches). */
  fetchAllow: string[];
  /** Cluster mode (docs/rules/cluster.md): etcd endpoints; null = one machine, as always. */
  clusterEtcd: string[] | null;
  /** This node's name in the cluster (an HAProxy backend of that name routes to it). */
  clusterNode: string | null;
  /** Where the other nodes and the commands reach this node; default http://127.0.0.1:<port>. */
  clusterUrl: string | null;
  /** Schools answer at `<key>.<domain>`: host routing and each school's public URL. */
  clusterDomain: string | null;
  /** HAProxy's runtime API (`unix:/path` or `host:port`): this node takes part in the placement agent's election. */
  clusterHaproxy: string | null;
  /** The map file HAProxy routes by, as HAProxy names it. */
  clusterHaproxyMap: string;
  /** Seconds of this node's etcd lease: a silent node's schools fail over after about this long. */
  clusterLeaseTtl: number;
  /** How long a ready file no record attaches is kept before the collector deletes it (docs/rules/storage.md#file-collector). */
  fileGraceMs: number;
};

export type SocialProviderEnv = { issuer: string; clientId: string; clientSecret: string };
export type SocialProviders = Partial<Record<"social_a" | "social_b", SocialProviderEnv>>;

/** LEARNSPACE_SOCIAL_A_* / _B_*: a provider is configured only when all three are set. */
function socialProviders(env: Env): SocialProviders {
  const out: SocialProviders = {};
  for (const [key, infix] of [
    ["social_a", "A"],
    ["social_b", "B"],
  ] as const) {
    const issuer = env[`LEARNSPACE_SOCIAL_${infix}_ISSUER`];
    const clientId = env[`LEARNSPACE_SOCIAL_${infix}_CLIENT_ID`];
    const clientSecret = env[`LEARNSPACE_SOCIAL_${infix}_CLIENT_SECRET`];
    if (issuer && clientId && clientSecret) out[key] = { issuer, clientId, clientSecret };
  }
  return out;
}

type Env = Record<string, string | undefined>;

/** A bad setting: its message is one line naming the flag or variable (exit code 2, no stack). */
export class ConfigError extends Error {}

type Setting = {
  key: keyof Config;
  /** The command-line flag (`--port`), when there is one; it wins over the variable. */
  flag?: string;
  env?: string;
  /** A flag that takes no value (`--dev-codes`). */
  boolean?: boolean;
  /** May hold a credential: a bad value is never echoed. */
  secret?: boolean;
  /** Turns the raw text into the value, or returns an error text (what it must be). */
  parse(raw: string): Parsed;
  fallback: unknown;
};

type Parsed = { error: string } | { value: unknown };
const fail = (what: string): Parsed => ({ error: what });
const ok = (value: unknown): Parsed => ({ value });

function integer(min: number, max = Number.MAX_SAFE_INTEGER) {
  return (raw: string): Parsed => {
    const n = /^\s*-?\d+\s*$/.test(raw) ? Number(raw) : Number.NaN;
    return Number.isInteger(n) && n >= min && n <= max ? ok(n) : fail(`an integer ${min}..${max}`);
  };
}

function url(protocols: string[]) {
  return (raw: string): Parsed => {
    try {
      const u = new URL(raw);
      if (protocols.includes(u.protocol) && u.hostname) return ok(raw);
    } catch {}
    return fail(`a URL starting with ${protocols.map((p) => `${p}//`).join(" or ")}`);
  };
}

/** "30m", "6h", "1d", "45s" → milliseconds. */
function duration(raw: string): Parsed {
  const m = /^(\d+)(s|m|h|d)$/.exec(raw.trim());
  const n = m ? Number(m[1]) * { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }[m[2] as "s"] : 0;
  return n > 0 ? ok(n) : fail("a duration like 30m, 6h or 1d");
}

const flagValue = (raw: string): Parsed =>
  ["1", "true", "yes", "on"].includes(raw) ? ok(true) : ["0", "false", "no", "off"].includes(raw) ? ok(false) : fail("1 or 0");

/** "10.0.0.1", "::1", "10.0.0.0/8", "fd00::/8". */
export function isAddressOrCidr(s: string): boolean {
  const [addr = "", bits, extra] = s.split("/");
  const family = isIP(addr);
  if (!family || extra !== undefined) return false;
  if (bits === undefined) return true;
  const n = /^\d{1,3}$/.test(bits) ? Number(bits) : -1;
  return n >= 0 && n <= (family === 4 ? 32 : 128);
}

/** "idp.school.internal", "10.0.0.5", "10.0.0.0/8". */
const isHostOrCidr = (s: string) => isAddressOrCidr(s) || (s.length <= 253 && /^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/i.test(s));

function list(check: (item: string) => boolean, what: string) {
  return (raw: string): Parsed => {
    const items = raw
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
    const bad = items.find((i) => !check(i));
    return bad === undefined ? ok(items) : fail(`a comma-separated list of ${what} ("${bad}" is not one)`);
  };
}

const isOrigin = (s: string) => {
  try {
    const u = new URL(s);
    return (u.protocol === "http:" || u.protocol === "https:") && u.origin === s;
  } catch {
    return false;
  }
};

function s3Url(raw: string): Parsed {
  try {
    parseS3Url(raw, {});
    return ok(raw);
  } catch (e) {
    return fail(`an s3://bucket?endpoint=…&region=… URL (${(e as Error).message})`);
  }
}

/** One row per setting: where it comes from, what it must be, its default. */
const SETTINGS: Setting[] = [
  { key: "port", flag: "port", env: "LEARNSPACE_PORT", parse: integer(0, 65535), fallback: 3000 },
  {
    key: "dataDir",
    flag: "data-dir",
    env: "LEARNSPACE_DATA_DIR",
    parse: (r) => (r.trim() ? ok(resolve(r)) : fail("a directory")),
    fallback: resolve("./data"),
  },
  { key: "devCodes", flag: "dev-codes", env: "LEARNSPACE_DEV_CODES", boolean: true, parse: flagValue, fallback: false },
  { key: "publicUrl", env: "LEARNSPACE_PUBLIC_URL", parse: (r) => url(["http:", "https:"])(r.replace(/\/+$/, "")), fallback: null },
  { key: "smtpUrl", env: "LEARNSPACE_SMTP_URL", secret: true, parse: url(["smtp:", "smtps:"]), fallback: null },
  {
    key: "secret",
    env: "LEARNSPACE_SECRET",
    secret: true,
    parse: (r) => (r.length >= 16 ? ok(r) : fail("at least 16 characters")),
    fallback: null,
  },
  { key: "ipRateLimit", env: "LEARNSPACE_IP_RATE_LIMIT", parse: integer(0), fallback: 60 },
  { key: "communityRateLimit", env: "LEARNSPACE_COMMUNITY_RATE_LIMIT", parse: integer(0), fallback: 20 },
  { key: "memoryMb", env: "LEARNSPACE_MEMORY_MB", parse: integer(64), fallback: 128 },
  { key: "signinQueue", env: "LEARNSPACE_SIGNIN_QUEUE", parse: integer(0), fallback: 1000 },
  // Unset: as many handles as the memory budget allows.
  { key: "tenantHandles", env: "LEARNSPACE_TENANT_HANDLES", parse: integer(1), fallback: null },
  { key: "quiet", env: "LEARNSPACE_QUIET", parse: flagValue, fallback: false },
  { key: "trustedProxies", env: "LEARNSPACE_TRUSTED_PROXIES", parse: list(isAddressOrCidr, "IP addresses or CIDR blocks"), fallback: [] },
  // Bun's idleTimeout is at most 255 s.
  { key: "requestTimeout", env: "LEARNSPACE_REQUEST_TIMEOUT", parse: integer(1, 255), fallback: 30 },
  { key: "corsOrigins", env: "LEARNSPACE_CORS_ORIGINS", parse: list(isOrigin, "origins (scheme://host[:port])"), fallback: [] },
  { key: "backupDir", env: "LEARNSPACE_BACKUP_DIR", parse: (r) => (r.trim() ? ok(resolve(r)) : fail("a directory")), fallback: null },
  { key: "backupEveryMs", env: "LEARNSPACE_BACKUP_EVERY", parse: duration, fallback: 86_400_000 },
  { key: "backupKeep", env: "LEARNSPACE_BACKUP_KEEP", parse: integer(1), fallback: 7 },
  { key: "metricsToken", env: "LEARNSPACE_METRICS_TOKEN", secret: true, parse: ok, fallback: null },
  { key: "metrics", env: "LEARNSPACE_METRICS", parse: flagValue, fallback: true },
  { key: "storageUrl", env: "LEARNSPACE_STORAGE_URL", parse: s3Url, fallback: null },
  { key: "replicaUrl", env: "LEARNSPACE_REPLICA_URL", parse: s3Url, fallback: null },
  { key: "replicaSyncMs", env: "LEARNSPACE_REPLICA_SYNC", parse: duration, fallback: 1_000 },
  {
    key: "tenantSignup",
    env: "LEARNSPACE_TENANT_SIGNUP",
    parse: (r) => (["first", "open", "closed"].includes(r.trim()) ? ok(r.trim()) : fail("first, open or closed")),
    fallback: "first",
  },
  { key: "fetchAllow", env: "LEARNSPACE_FETCH_ALLOW", parse: list(isHostOrCidr, "host names, IP addresses or CIDR blocks"), fallback: [] },
  {
    key: "clusterEtcd",
    env: "LEARNSPACE_CLUSTER_ETCD",
    parse: list((s) => "value" in url(["http:", "https:"])(s), "etcd URLs (http://host:2379)"),
    fallback: null,
  },
  {
    key: "clusterNode",
    env: "LEARNSPACE_CLUSTER_NODE",
    parse: (r) =>
      /^[a-z][a-z0-9_-]{0,31}$/.test(r) ? ok(r) : fail("a node name: a lowercase letter, then letters, digits, - or _ (32 at most)"),
    fallback: null,
  },
  { key: "clusterUrl", env: "LEARNSPACE_CLUSTER_URL", parse: (r) => url(["http:", "https:"])(r.replace(/\/+$/, "")), fallback: null },
  {
    key: "clusterDomain",
    env: "LEARNSPACE_CLUSTER_DOMAIN",
    parse: (r) => (isHostOrCidr(r) && !isAddressOrCidr(r) ? ok(r.toLowerCase()) : fail("a domain name")),
    fallback: null,
  },
  {
    key: "clusterHaproxy",
    env: "LEARNSPACE_CLUSTER_HAPROXY",
    parse: (r) => (/^(unix:\/.+|[^:]+:\d+)$/.test(r) ? ok(r) : fail("unix:/path or host:port")),
    fallback: null,
  },
  {
    key: "clusterHaproxyMap",
    env: "LEARNSPACE_CLUSTER_HAPROXY_MAP",
    parse: (r) => (r.startsWith("/") ? ok(r) : fail("an absolute path")),
    fallback: "/etc/haproxy/tenants.map",
  },
  { key: "clusterLeaseTtl", env: "LEARNSPACE_CLUSTER_LEASE_TTL", parse: integer(2, 60), fallback: 5 },
  { key: "fileGraceMs", env: "LEARNSPACE_FILE_GRACE", parse: duration, fallback: 7 * 86_400_000 },
];

/** The server's own flags, for commands that take options of their own besides these. */
export const SERVER_FLAGS = SETTINGS.filter((s) => s.flag).map((s) => ({ name: s.flag as string, boolean: !!s.boolean }));

/**
 * Reads the server's flags out of `args`: `--name value`, `--name=value`, and boolean flags bare.
 * With `strict`, anything else (an unknown flag, a stray word) is an error; otherwise it is left
 * for the command's own parser.
 */
function readFlags(args: string[], strict: boolean): Map<string, string> {
  const out = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    const eq = arg.indexOf("=");
    const name = arg.startsWith("--") ? arg.slice(2, eq >= 0 ? eq : undefined) : null;
    const setting = SETTINGS.find((s) => s.flag && s.flag === name);
    if (!setting) {
      if (strict) throw new ConfigError(arg.startsWith("-") ? `unknown flag ${arg.split("=")[0]}` : `unexpected argument "${arg}"`);
      continue;
    }
    if (setting.boolean) {
      out.set(name as string, eq >= 0 ? arg.slice(eq + 1) : "1");
      continue;
    }
    const value = eq >= 0 ? arg.slice(eq + 1) : args[i + 1];
    if (value === undefined || (eq < 0 && value.startsWith("--"))) throw new ConfigError(`--${name} needs a value`);
    if (eq < 0) i++;
    out.set(name as string, value);
  }
  return out;
}

/**
 * Every setting, validated: a bad one throws a ConfigError naming the flag or variable. `strict`
 * (the default) refuses arguments that are not the server's flags.
 */
export function loadConfig(args: string[] = [], env: Env = process.env, overrides: Partial<Config> = {}, strict = true): Config {
  const flags = readFlags(args, strict);
  const values: Record<string, unknown> = {};
  for (const s of SETTINGS) {
    const fromFlag = s.flag ? flags.get(s.flag) : undefined;
    const raw = fromFlag ?? (s.env ? env[s.env] : undefined);
    if (raw === undefined || raw === "") {
      values[s.key] = s.fallback;
      continue;
    }
    const parsed = s.parse(raw);
    if ("error" in parsed) {
      const name = fromFlag !== undefined ? `--${s.flag}` : s.env;
      throw new ConfigError(`${name} must be ${parsed.error}${s.secret ? "" : `, got "${raw}"`}`);
    }
    values[s.key] = parsed.value;
  }
  const config = { ...(values as Config), social: socialProviders(env), ...overrides };
  config.publicUrl = (overrides.publicUrl ?? (values.publicUrl as string | null) ?? `http://localhost:${config.port}`).replace(/\/+$/, "");
  return config;
}

/** The value of a command's own option `--name VALUE` or `--name=VALUE`. */
export function flag(args: string[], name: string): string | undefined {
  const i = args.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  if (i < 0) return undefined;
  const a = args[i] as string;
  return a.includes("=") ? a.slice(a.indexOf("=") + 1) : args[i + 1];
}
