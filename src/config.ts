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
  /** The memory the server aims to stay within (MiB); tenant-file handles and their caches follow from it. */
  memoryMb: number;
  /** Password hashes that may wait for a core before more sign-ins are shed with 503 SERVER_BUSY. */
  signinQueue: number;
  /** Open tenant-file handles; null = as many as the memory budget allows. */
  tenantHandles: number | null;
  quiet: boolean;
};

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
    memoryMb: intSetting("LEARNSPACE_MEMORY_MB", env.LEARNSPACE_MEMORY_MB, 128, 64),
    signinQueue: intSetting("LEARNSPACE_SIGNIN_QUEUE", env.LEARNSPACE_SIGNIN_QUEUE, 1000, 0),
    tenantHandles: env.LEARNSPACE_TENANT_HANDLES ? intSetting("LEARNSPACE_TENANT_HANDLES", env.LEARNSPACE_TENANT_HANDLES, 0, 1) : null,
    quiet: env.LEARNSPACE_QUIET === "1",
    ...overrides,
  };
}
