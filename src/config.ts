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

function flag(args: string[], name: string): string | undefined {
  const i = args.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  if (i < 0) return undefined;
  const a = args[i] as string;
  return a.includes("=") ? a.slice(a.indexOf("=") + 1) : args[i + 1];
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
    ...overrides,
  };
}
