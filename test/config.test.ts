import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConfigError, loadConfig } from "../src/config";
import { startServer } from "../src/server";

const bun = process.execPath;
const main = join(import.meta.dir, "..", "src", "main.ts");

/** Runs the CLI with a clean environment plus `env`; returns exit code and output. */
function cli(args: string[], env: Record<string, string> = {}) {
  const r = Bun.spawnSync([bun, main, ...args], { env: { PATH: process.env.PATH ?? "", HOME: tmpdir(), ...env }, cwd: tmpdir() });
  return { code: r.exitCode, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
}

const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as Error).message;
  }
  throw new Error("accepted");
};

describe("settings are validated at start", () => {
  test("each bad setting is refused with a message naming the flag or variable", () => {
    expect(refusal(() => loadConfig([], { LEARNSPACE_PORT: "abc" }))).toStartWith("LEARNSPACE_PORT must be");
    expect(refusal(() => loadConfig(["--port", "99999"], {}))).toStartWith("--port must be");
    expect(refusal(() => loadConfig(["--port=-1"], {}))).toStartWith("--port must be");
    expect(refusal(() => loadConfig([], { LEARNSPACE_SMTP_URL: "mail.example.com:25" }))).toStartWith("LEARNSPACE_SMTP_URL must be");
    expect(refusal(() => loadConfig([], { LEARNSPACE_PUBLIC_URL: "notaurl" }))).toStartWith("LEARNSPACE_PUBLIC_URL must be");
    expect(refusal(() => loadConfig([], { LEARNSPACE_PUBLIC_URL: "ftp://x.example" }))).toStartWith("LEARNSPACE_PUBLIC_URL must be");
    expect(refusal(() => loadConfig([], { LEARNSPACE_IP_RATE_LIMIT: "1.5" }))).toStartWith("LEARNSPACE_IP_RATE_LIMIT must be");
    expect(refusal(() => loadConfig([], { LEARNSPACE_TENANT_HANDLES: "0" }))).toStartWith("LEARNSPACE_TENANT_HANDLES must be");
    expect(refusal(() => loadConfig([], { LEARNSPACE_DEV_CODES: "maybe" }))).toStartWith("LEARNSPACE_DEV_CODES must be");
    expect(refusal(() => loadConfig([], { LEARNSPACE_TRUSTED_PROXIES: "10.0.0.1, 10.0.0.0/33" }))).toContain('"10.0.0.0/33"');
    expect(refusal(() => loadConfig([], { LEARNSPACE_CORS_ORIGINS: "https://a.example/path" }))).toStartWith("LEARNSPACE_CORS_ORIGINS");
  });

  test("a bad credential-holding setting is named but its value never echoed", () => {
    expect(refusal(() => loadConfig([], { LEARNSPACE_SECRET: "hunter2" }))).toBe("LEARNSPACE_SECRET must be at least 16 characters");
    expect(refusal(() => loadConfig([], { LEARNSPACE_SMTP_URL: "user:hunter2@mail" }))).not.toContain("hunter2");
  });

  test("unknown flags, stray words and flags without a value are refused", () => {
    expect(refusal(() => loadConfig(["--prot", "3000"], {}))).toBe("unknown flag --prot");
    expect(refusal(() => loadConfig(["extra"], {}))).toBe('unexpected argument "extra"');
    expect(refusal(() => loadConfig(["--port"], {}))).toBe("--port needs a value");
    expect(refusal(() => loadConfig(["--data-dir", "--dev-codes"], {}))).toBe("--data-dir needs a value");
  });

  test("good settings are read, flags before variables", () => {
    const c = loadConfig(["--port=4000", "--dev-codes"], {
      LEARNSPACE_PORT: "5000",
      LEARNSPACE_PUBLIC_URL: "https://learn.example.com/",
      LEARNSPACE_SMTP_URL: "smtps://u:p@mail.example.com:465",
      LEARNSPACE_TRUSTED_PROXIES: "127.0.0.1, 10.0.0.0/8, ::1",
      LEARNSPACE_CORS_ORIGINS: "https://app.example.com",
    });
    expect(c.port).toBe(4000);
    expect(c.devCodes).toBe(true);
    expect(c.publicUrl).toBe("https://learn.example.com");
    expect(c.trustedProxies).toEqual(["127.0.0.1", "10.0.0.0/8", "::1"]);
    expect(c.corsOrigins).toEqual(["https://app.example.com"]);
  });

  test("the CLI prints one line and exits 2; help works even with a bad environment", () => {
    const bad = cli(["serve"], { LEARNSPACE_PORT: "abc" });
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim().split("\n")).toEqual(['learnspace: LEARNSPACE_PORT must be an integer 0..65535, got "abc"']);
    const flag = cli(["migrate", "--bogus"]);
    expect(flag.code).toBe(2);
    expect(flag.stderr.trim()).toBe("learnspace: unknown flag --bogus");
    const help = cli(["help"], { LEARNSPACE_PORT: "abc", LEARNSPACE_SMTP_URL: "nope" });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("Usage:");
  });
});

describe("one server per data dir", () => {
  test("a second server on the same data dir is refused while the first runs; a stale lock is taken over", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "learnspace-lock-"));
    try {
      const config = loadConfig([], { LEARNSPACE_QUIET: "1" }, { port: 0, dataDir });
      const first = startServer(config);
      expect(refusal(() => startServer(config))).toContain("in use");
      const other = cli(["serve", "--port", "0", "--data-dir", dataDir], { LEARNSPACE_QUIET: "1" });
      expect(other.code).toBe(2);
      expect(other.stderr).toContain("is in use by another learnspace server");
      await first.stop();
      // A lock left behind by a killed process (its pid no longer runs) does not block a restart.
      writeFileSync(join(dataDir, "server.lock"), "999999999\n");
      const second = startServer(config);
      expect(readFileSync(join(dataDir, "server.lock"), "utf8").trim()).toBe(String(process.pid));
      await second.stop();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
