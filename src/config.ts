import { resolve } from "node:path";

/** Every setting of the server, from flags first, then env, then defaults (DECISIONS §0). */
export type Config = {
  port: number;
  dataDir: string;
  devCodes: boolean;
  publicUrl: string;
  smtpUrl: string | null;
  secret: string | null;
  ipRateLimit: number;
  tenantHandles: number;
  quiet: boolean;
  /** Platform-wide OpenID Connect providers (DECISIONS §10); checked where used, not here. */
  social: SocialProviders;
  /** Scheduled backups (DECISIONS §11): folder (null = off), interval in ms, how many to keep. */
  backupDir: string | null;
  backupEveryMs: number;
  backupKeep: number;
  metricsToken: string | null;
  /** GET /metrics and the per-request series; LEARNSPACE_METRICS=0 turns both off. */
  metrics: boolean;
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

/** The value of `--name VALUE` or `--name=VALUE`. */
export function flag(args: string[], name: string): string | undefined {
  const i = args.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  if (i < 0) return undefined;
  const a = args[i] as string;
  return a.includes("=") ? a.slice(a.indexOf("=") + 1) : args[i + 1];
}

/** "30m", "6h", "1d", "45s" → milliseconds. */
export function durationSetting(name: string, raw: string | undefined, fallback: string): number {
  const m = /^(\d+)(s|m|h|d)$/.exec((raw || fallback).trim());
  const n = m ? Number(m[1]) * { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }[m[2] as "s"] : 0;
  if (n <= 0) throw new Error(`${name} must be a duration like 30m, 6h or 1d, got "${raw}"`);
  return n;
}

function intSetting(name: string, raw: string | undefined, fallback: number, min: number): number {
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be an integer >= ${min}, got "${raw}"`);
  return n;
}

export function loadConfig(args: string[] = [], env: Env = process.env, overrides: Partial<Config> = {}): Config {
  const port = intSetting("port", flag(args, "port") ?? env.LEARNSPACE_PORT, 3000, 0);
  const dataDir = resolve(flag(args, "data-dir") ?? env.LEARNSPACE_DATA_DIR ?? "./data");
  const devCodes = args.includes("--dev-codes") || env.LEARNSPACE_DEV_CODES === "1" || env.LEARNSPACE_DEV_CODES === "true";
  const finalPort = overrides.port ?? port;
  const publicUrl = (env.LEARNSPACE_PUBLIC_URL || `http://localhost:${finalPort}`).replace(/\/+$/, "");
  return {
    port,
    dataDir,
    devCodes,
    publicUrl,
    smtpUrl: env.LEARNSPACE_SMTP_URL || null,
    secret: env.LEARNSPACE_SECRET || null,
    ipRateLimit: intSetting("LEARNSPACE_IP_RATE_LIMIT", env.LEARNSPACE_IP_RATE_LIMIT, 60, 0),
    tenantHandles: intSetting("LEARNSPACE_TENANT_HANDLES", env.LEARNSPACE_TENANT_HANDLES, 256, 1),
    quiet: env.LEARNSPACE_QUIET === "1",
    social: socialProviders(env),
    backupDir: env.LEARNSPACE_BACKUP_DIR ? resolve(env.LEARNSPACE_BACKUP_DIR) : null,
    backupEveryMs: durationSetting("LEARNSPACE_BACKUP_EVERY", env.LEARNSPACE_BACKUP_EVERY, "24h"),
    backupKeep: intSetting("LEARNSPACE_BACKUP_KEEP", env.LEARNSPACE_BACKUP_KEEP, 7, 1),
    metricsToken: env.LEARNSPACE_METRICS_TOKEN || null,
    metrics: env.LEARNSPACE_METRICS !== "0",
    ...overrides,
  };
}
