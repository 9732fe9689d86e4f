import { expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = join(import.meta.dir, "..");

test("SIGTERM to `npm run demo` stops the server too (npm's shell execs bun, so the signal reaches it)", async () => {
  const dataDir = mkdtempSync(join(tmpdir(), "learnspace-demo-"));
  const npm = Bun.spawn(["npm", "run", "--silent", "demo"], {
    cwd: root,
    env: { ...process.env, LEARNSPACE_PORT: "0", LEARNSPACE_DATA_DIR: dataDir, LEARNSPACE_QUIET: "1" },
    stdout: "pipe",
    stderr: "ignore",
  });
  try {
    // The server prints its URL once listening.
    let out = "";
    const reader = npm.stdout.getReader();
    while (!/listening on (http:\/\/\S+)/.test(out)) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`demo ended early: ${out}`);
      out += new TextDecoder().decode(value);
    }
    const url = (/listening on (http:\/\/\S+)/.exec(out) as RegExpExecArray)[1] as string;
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    npm.kill("SIGTERM");
    await npm.exited;
    // The server is gone with npm: nothing answers on its port any more.
    let answered = true;
    for (let i = 0; i < 100 && answered; i++) {
      answered = await fetch(`${url}/healthz`).then(
        () => true,
        () => false,
      );
      if (answered) await Bun.sleep(50);
    }
    expect(answered).toBe(false);
  } finally {
    npm.kill("SIGKILL");
    rmSync(dataDir, { recursive: true, force: true });
  }
}, 30_000);
