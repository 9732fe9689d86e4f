// Continuous replication with Litestream against a real S3-compatible store (Swift with s3api, which
// .ci/run starts; LEARNSPACE_TEST_S3_ENDPOINT names it). `serve` runs from the sources with
// LEARNSPACE_REPLICA_URL; writers post over HTTP; the server and its Litestream are killed with
// SIGKILL together; `restore --from-replica` into a fresh data dir must hold every write acknowledged
// more than the sync interval before the kill (docs/rules/replication.md#rpo), with every core kept busy
// by busy loops at nice 0 during the writer loop, as a parallel test run does: Litestream's CPU floor
// (docs/rules/replication.md#scheduling) must raise it from SCHED_IDLE in time.

import { Database } from "bun:sqlite";
import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { signUpVerified } from "./helpers/auth";
import { cli, FROM_SOURCE, removeDir, serve, tempDir } from "./helpers/binary";
import { S3_ENV } from "./helpers/s3";

const endpoint = process.env.LEARNSPACE_TEST_S3_ENDPOINT;
if (!endpoint)
  console.warn(
    "test/replica.test.ts skipped: LEARNSPACE_TEST_S3_ENDPOINT is not set (bash scripts/swift-s3.sh start DIR PORT, then set it)",
  );

const SYNC_MS = 1000;
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) removeDir(d);
});

/** A new Swift container: its s3:// URL, and a wait until a tenant's first snapshot is in it. */
async function bucket(url: string) {
  const auth = await fetch(`${url}/auth/v1.0`, { headers: { "x-auth-user": "test:tester", "x-auth-key": "testing" } });
  const headers = { "x-auth-token": auth.headers.get("x-auth-token") ?? "" };
  const name = `replica-${crypto.randomUUID().slice(0, 8)}`;
  const res = await fetch(`${url}/v1/AUTH_test/${name}`, { method: "PUT", headers });
  expect(res.status).toBeLessThan(300);
  return {
    url: `s3://${name}/school?endpoint=${encodeURIComponent(url)}&region=us-east-1`,
    async snapshotOf(tenantId: string) {
      for (let i = 0; i < 300; i++) {
        const list = await (await fetch(`${url}/v1/AUTH_test/${name}?prefix=school/tenants/${tenantId}.sqlite/`, { headers })).text();
        if (list.includes("/snapshots/")) return;
        await Bun.sleep(50);
      }
      throw new Error(`tenant ${tenantId} was not replicated`);
    },
  };
}

/** A busy loop per core at nice 0 (docs/rules/replication.md#scheduling): no idle CPU left for SCHED_IDLE. */
const saturate = () =>
  Array.from({ length: navigator.hardwareConcurrency }, () =>
    Bun.spawn([process.execPath, "-e", "for (;;) {}"], { stdin: "ignore", stdout: "ignore", stderr: "ignore" }),
  );

/** Post ids of a tenant file. */
function postIds(file: string): Set<string> {
  const db = new Database(file, { readonly: true });
  try {
    return new Set((db.query("SELECT id FROM posts").all() as { id: string }[]).map((r) => r.id));
  } finally {
    db.close();
  }
}

describe.skipIf(!endpoint)("replication to S3 with Litestream", () => {
  test("kill -9 under writers, then restore --from-replica: every write acknowledged a sync interval before the kill is there; point in time; a tenant created while replicating", async () => {
    const store = await bucket(endpoint as string);
    const replicaUrl = store.url;
    const env = { ...S3_ENV, LEARNSPACE_REPLICA_URL: replicaUrl, LEARNSPACE_REPLICA_SYNC: "1s", LEARNSPACE_COMMUNITY_RATE_LIMIT: "0" };
    const live = tempDir("learnspace-replica-");
    dirs.push(live);
    const app = await serve(join(live, "data"), env, FROM_SOURCE);
    const litestreamPid = () => Number(readFileSync(join(live, "data", "litestream.pid"), "utf8"));
    /** Until `serve` has restarted Litestream with the files present now (a new tenant is picked up). */
    const pickedUp = async (before: number) => {
      for (let i = 0; litestreamPid() === before; i++) {
        if (i > 300) throw new Error("Litestream was not restarted for the new tenant");
        await Bun.sleep(50);
      }
    };
    const firstPid = litestreamPid();
    expect(firstPid).toBeGreaterThan(0);

    // School A is created after Litestream started: it must be picked up.
    const a = await signUpVerified(app);
    await pickedUp(firstPid);
    await store.snapshotOf((await app.call("GET", "/api/v1/tenant", { token: a.token })).body.id);
    const spaceA = (await app.call("POST", "/api/v1/spaces", { token: a.token, json: { name: "A" } })).body.id as string;
    const post = async (token: string, spaceId: string, title: string) => {
      const r = await app.call("POST", "/api/v1/posts", { token, json: { spaceId, title, content: "x".repeat(200) } });
      if (r.status !== 201) throw new Error(`post: ${r.status}`);
      return { id: r.body.id as string, at: Date.now() };
    };
    // Two writes 3 s apart, for the point-in-time restore between them.
    const first = await post(a.token, spaceA, "first");
    await Bun.sleep(3000);
    // Before the second write is sent: its WAL segment can only reach the store after that.
    const between = new Date();
    const second = await post(a.token, spaceA, "second");

    // Writers for 4 s; school B is created in the middle of them.
    const acked: { id: string; at: number; school: "a" | "b" }[] = [first, second].map((p) => ({ ...p, school: "a" }));
    let b: Awaited<ReturnType<typeof signUpVerified>> | null = null;
    let spaceB = "";
    let running = true;
    const writer = async () => {
      while (running) {
        try {
          acked.push({ ...(await post(a.token, spaceA, "loop")), school: "a" });
          if (b && spaceB) acked.push({ ...(await post(b.token, spaceB, "loop")), school: "b" });
        } catch {
          // A write cut by the kill was never acknowledged: nothing is expected of it.
        }
      }
    };
    const writers = [writer(), writer()];
    const busy = saturate();
    await Bun.sleep(1000);
    const beforeB = litestreamPid();
    b = await signUpVerified(app);
    spaceB = (await app.call("POST", "/api/v1/spaces", { token: b.token, json: { name: "B" } })).body.id as string;
    // Writes to B before its pickup are in its first snapshot; the writers go on for 3 s after it.
    await pickedUp(beforeB);
    // Meanwhile /metrics and doctor (another process, from serve's status file) show lag and last sync per file.
    const [metrics, doctor] = await Promise.all([
      app.call("GET", "/metrics"),
      Bun.sleep(0).then(async () => {
        const run = Bun.spawn([...FROM_SOURCE, "doctor", "--data-dir", join(live, "data")], {
          env: { ...process.env, ...env },
          stdout: "pipe",
        });
        return new Response(run.stdout).text();
      }),
      Bun.sleep(3000),
    ]);
    const idA = (await app.call("GET", "/api/v1/tenant", { token: a.token })).body.id as string;
    expect(metrics.body).toMatch(/learnspace_replica_lag_seconds\{file="platform.sqlite"\} \d/);
    expect(metrics.body).toContain(`learnspace_replica_last_sync_timestamp_seconds{file="tenants/${idA}.sqlite"}`);
    expect(metrics.body).toContain("learnspace_replica_up 1");
    // Litestream's priority and the CPU floor's raises (docs/rules/replication.md#scheduling).
    expect(metrics.body).toMatch(/learnspace_replica_priority_normal [01]\n/);
    expect(doctor).toMatch(/replication: Litestream at (idle|normal) priority, raised \d+ times by the CPU floor/);
    expect(doctor).toMatch(
      new RegExp(`replica tenants/${idA}.sqlite: lag [0-9.]+ s, \\d+ bytes behind, last sync 20\\S+ \\(hot, RPO 1 s\\)`),
    );
    // A school written lately is hot: its RPO is the sync interval (docs/rules/replication.md#tiers).
    expect(metrics.body).toContain(`learnspace_replica_rpo_seconds{file="tenants/${idA}.sqlite"} 1\n`);
    const raises = /learnspace_replica_priority_raises (\d+)/.exec((await app.call("GET", "/metrics")).body)?.[1];
    // The server and the Litestream it supervises, killed together.
    const killedAt = Date.now();
    process.kill(litestreamPid(), "SIGKILL");
    app.proc.kill("SIGKILL");
    running = false;
    for (const b of busy) b.kill("SIGKILL");
    await Promise.all([app.proc.exited, ...writers, ...busy.map((b) => b.exited)]);

    const fresh = join(live, "restored");
    const restored = cli(["restore", "--from-replica", replicaUrl, "--data-dir", fresh], env, FROM_SOURCE);
    expect(restored.stderr).toBe("");
    expect(restored.code).toBe(0);
    expect(restored.stdout).toContain("doctor found no problem");

    const registry = new Database(join(fresh, "platform.sqlite"), { readonly: true });
    const ids = Object.fromEntries(
      (registry.query("SELECT key, id FROM tenants").all() as { key: string; id: string }[]).map((t) => [t.key, t.id]),
    );
    registry.close();
    expect(Object.keys(ids).sort()).toEqual([a.tenantKey, b?.tenantKey].sort() as string[]);
    const present = {
      a: postIds(join(fresh, "tenants", `${ids[a.tenantKey as string]}.sqlite`)),
      b: postIds(join(fresh, "tenants", `${ids[b?.tenantKey as string]}.sqlite`)),
    };
    // The bound (docs/rules/replication.md#rpo): Litestream copies every S/2 and ships at the next S/10 tick,
    // so writes acknowledged more than the sync interval S before the kill must all be there.
    const old = acked.filter((w) => w.at < killedAt - SYNC_MS);
    const lostOld = old.filter((w) => !present[w.school].has(w.id));
    const lost = (from: number, to: number) => {
      const ws = acked.filter((w) => w.at >= killedAt - to && w.at < killedAt - from);
      return `${ws.filter((w) => !present[w.school].has(w.id)).length} of ${ws.length}`;
    };
    console.log(
      `replica, cores saturated: ${acked.length} writes acknowledged; lost ${lost(0, SYNC_MS)} of the last second (${lost(0, SYNC_MS / 2)} of its last half), ${lostOld.length} older; Litestream raised ${raises} times by the CPU floor`,
    );
    expect(lostOld).toEqual([]);
    expect(old.filter((w) => w.school === "b").length).toBeGreaterThan(0);

    // Point in time: school A as it was between its first two writes, beside the others under a new key.
    const pit = cli(
      [
        "restore",
        "--from-replica",
        replicaUrl,
        "--tenant",
        a.tenantKey as string,
        "--as",
        "before-second",
        "--at",
        between.toISOString(),
        "--data-dir",
        fresh,
      ],
      env,
      FROM_SOURCE,
    );
    expect(pit.stderr).toBe("");
    expect(pit.code).toBe(0);
    const registry2 = new Database(join(fresh, "platform.sqlite"), { readonly: true });
    const pitId = (registry2.query("SELECT id FROM tenants WHERE key = 'before-second'").get() as { id: string }).id;
    registry2.close();
    expect(pitId).not.toBe(ids[a.tenantKey as string]);
    const asOf = postIds(join(fresh, "tenants", `${pitId}.sqlite`));
    expect(asOf.has(first.id)).toBe(true);
    expect(asOf.has(second.id)).toBe(false);

    // The same key again is refused; a restore into a data dir that is not empty too.
    const again = cli(
      ["restore", "--from-replica", replicaUrl, "--tenant", a.tenantKey as string, "--as", "before-second", "--data-dir", fresh],
      env,
      FROM_SOURCE,
    );
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('a tenant with key "before-second" exists here');
    const notEmpty = cli(["restore", "--from-replica", replicaUrl, "--data-dir", fresh], env, FROM_SOURCE);
    expect(notEmpty.code).toBe(1);
    expect(notEmpty.stderr).toContain("is not empty");
  }, 90_000);
});
