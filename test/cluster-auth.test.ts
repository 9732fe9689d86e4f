import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Etcd3 } from "etcd3";
import { directoryPublisher, homeNodeOf } from "../src/cluster/directory";
import { DIRECTORY, type PlacementAt } from "../src/cluster/etcd";
import type { ClusterNode } from "../src/cluster/node";
import { askPeer } from "../src/cluster/peer";
import type { CodeKey } from "../src/modules/auth/codes";
import { type Membership, type RemoteAuth, setRemoteAuth } from "../src/modules/auth/remote";
import { settled } from "../src/platform/db/group-commit";
import { Problem } from "../src/platform/http/errors";
import { createMemberFixture, createTenantFixture, expectProblem, useServer } from "./helpers/server";

// Sign-in without a tenant key across nodes (docs/rules/cluster.md#sign-in-without-a-tenant-key),
// over HTTP on one server whose cluster side is a stand-in: what the auth operations ask the other
// nodes, and what they do with the answers. The whole cluster is proved by scripts/cluster-check.sh.

type Calls = { run: [string, string, unknown][]; checkCode: [string, CodeKey, string, boolean][] };

/** A cluster of this node and "n2": n2 holds the school `far`; `home` is where the e-mails' codes live. */
function stand(opts: { far?: Membership[]; home?: string | null; answer?: unknown; refuse?: Problem; codeOk?: string }) {
  const calls: Calls = { run: [], checkCode: [] };
  const bridge: RemoteAuth = {
    memberships: async () => opts.far ?? [],
    nodeOf: (key) => (key === "far" ? "n2" : null),
    homeOf: () => opts.home ?? null,
    run: async <T>(node: string, op: string, input: unknown) => {
      calls.run.push([node, op, input]);
      if (opts.refuse) throw opts.refuse;
      return opts.answer as T;
    },
    checkCode: async (node, key, code, consume) => {
      calls.checkCode.push([node, key, code, consume]);
      if (code !== opts.codeOk) throw new Problem(400, "INVALID_CODE", "The code is wrong, expired or used.");
    },
  };
  return { bridge, calls };
}

const farSchool = (memberId = "m-far"): Membership => ({
  tenant: { id: "t-far", key: "far", name: "Far School", ownerEmail: "someone@else.example", createdAt: 0 },
  memberId,
  owned: false,
  logoImageUrl: null,
});

describe("one machine: no cluster side, nothing passed on", () => {
  const api = useServer();
  test("a /_cluster/ route does not exist (404) and keyless sign-in lists this node's schools only", async () => {
    expect((await api.call("POST", "/_cluster/memberships", { json: { email: "a@b.c" } })).status).toBe(404);
    const t = await createTenantFixture(api.server);
    const r = await api.anon("POST", "/auth/sign-in/password", { identifier: t.email, password: t.password });
    expect(r.status).toBe(200);
    expect(r.body.tenants.map((x: { key: string }) => x.key)).toEqual([t.tenantKey]);
  });
});

describe("a node of a cluster (the other nodes stood in for)", () => {
  const api = useServer({ devCodes: true });
  let near: Awaited<ReturnType<typeof createTenantFixture>>;
  beforeAll(async () => {
    near = await createTenantFixture(api.server);
  });
  const use = (s: ReturnType<typeof stand>) => {
    setRemoteAuth(api.server.rt, s.bridge);
    return s.calls;
  };
  afterAll(() => setRemoteAuth(api.server.rt, stand({}).bridge));

  test("AuthResult.tenants lists the schools other nodes hold, owned first, then by name", async () => {
    use(stand({ far: [farSchool()] }));
    const r = await api.anon("POST", "/auth/sign-in/password", { identifier: near.email, password: near.password });
    expect(r.status).toBe(200);
    expect(r.body.user.tenantKey).toBe(near.tenantKey);
    expect(r.body.tenants.map((x: { key: string; kind: string }) => `${x.key}:${x.kind}`)).toEqual([
      `${near.tenantKey}:owner`,
      "far:member",
    ]);
  });

  test("keyless password sign-in whose only school is on another node is passed there with that key; its answer and cookie come back", async () => {
    use(stand({}));
    const real = await api.anon("POST", "/auth/sign-in/password", { identifier: near.email, password: near.password });
    const calls = use(
      stand({ far: [farSchool()], answer: { body: real.body, cookie: "lsp_session=from-n2; Path=/api/v1/auth/session; HttpOnly" } }),
    );
    const r = await api.anon("POST", "/auth/sign-in/password", { identifier: " Lone@Example.com ", password: "Whatever1!" });
    expect(r.status).toBe(200);
    expect(r.body.accessToken).toBe(real.body.accessToken);
    expect(r.headers.get("set-cookie")).toContain("lsp_session=from-n2");
    expect(calls.run).toEqual([["n2", "signInWithPassword", { identifier: "lone@example.com", password: "Whatever1!", tenantKey: "far" }]]);
  });

  test("a sign-in naming a school on another node is passed there; its problem comes back as it is (429 with Retry-After)", async () => {
    const calls = use(
      stand({ refuse: new Problem(429, "RATE_LIMITED", "Too many wrong passwords; try again later.", undefined, { "retry-after": "60" }) }),
    );
    const r = await api.anon("POST", "/auth/sign-in/password", { identifier: "x@example.com", password: "Whatever1!", tenantKey: "far" });
    expectProblem(r, 429, "RATE_LIMITED");
    expect(r.headers.get("retry-after")).toBe("60");
    const c = await api.anon("POST", "/auth/sign-in/code", { email: "x@example.com", code: "123456", tenantKey: "far" });
    expectProblem(c, 429, "RATE_LIMITED");
    expect(calls.run.map(([n, op]) => `${n} ${op}`)).toEqual(["n2 signInWithPassword", "n2 signInWithCode"]);
  });

  test("platform codes are asked for and checked on the e-mail's home node", async () => {
    const answer = { nextResendAvailableAt: new Date().toISOString(), devCode: "654321" };
    const calls = use(stand({ home: "n3", answer }));
    const r = await api.anon("POST", "/auth/sign-in/request-code", { email: "Someone@Example.com" });
    expect(r.status).toBe(200);
    expect(r.body.devCode).toBe("654321");
    await api.anon("POST", "/auth/sign-in/check-code", { email: "someone@example.com", code: "654321" });
    expect(calls.run).toEqual([
      ["n3", "requestSignInCode", "someone@example.com"],
      ["n3", "checkSignInCode", { email: "someone@example.com", code: "654321" }],
    ]);
  });

  test("signInWithCode here: the school's code first; else the home node's platform code, used up there once the member is found", async () => {
    const calls = use(stand({ home: "n3", codeOk: "111111" }));
    const tcode = await api.anon("POST", `/public/tenants/${near.tenantKey}/auth/request-code`, { email: near.email });
    const own = await api.anon("POST", "/auth/sign-in/code", { email: near.email, code: tcode.body.devCode, tenantKey: near.tenantKey });
    expect(own.status).toBe(200);
    expect(calls.checkCode).toEqual([]);
    const wrong = await api.anon("POST", "/auth/sign-in/code", { email: near.email, code: "999999", tenantKey: near.tenantKey });
    expectProblem(wrong, 400, "INVALID_CODE");
    const platform = await api.anon("POST", "/auth/sign-in/code", { email: near.email, code: "111111", tenantKey: near.tenantKey });
    expect(platform.status).toBe(200);
    const key: CodeKey = { email: near.email, purpose: "sign-in", scope: "" };
    expect(calls.checkCode).toEqual([
      ["n3", key, "999999", false],
      ["n3", key, "111111", false],
      ["n3", key, "111111", true],
    ]);
  });
});

/** etcd as the directory publisher uses it: a key-value map, its puts and deletes recorded in order. */
function etcdStandIn() {
  const kv = new Map<string, string>();
  const ops: string[] = [];
  const etcd = {
    getAll: () => ({ prefix: (p: string) => ({ strings: async () => Object.fromEntries([...kv].filter(([k]) => k.startsWith(p))) }) }),
    put: (k: string) => ({ value: (v: string) => ({ exec: async () => ops.push(`put ${k.slice(DIRECTORY.length)}`) && kv.set(k, v) }) }),
    delete: () => ({ key: (k: string) => ({ exec: async () => ops.push(`delete ${k.slice(DIRECTORY.length)}`) && kv.delete(k) }) }),
  };
  return { etcd: etcd as unknown as Etcd3, ops };
}

describe("the e-mail directory publisher (docs/rules/cluster.md#e-mail-directory)", () => {
  const api = useServer();
  afterAll(() => {
    api.server.rt.tenants.guard = null;
  });

  test("a tick after a write to another table reads no member; a member change is read and published", async () => {
    const rt = api.server.rt;
    const t = await createTenantFixture(api.server);
    const member = await createMemberFixture(api.server, t);
    const { etcd, ops } = etcdStandIn();
    const placement: PlacementAt = {
      key: t.tenantKey,
      tenantId: t.tenantId,
      node: "n1",
      epoch: 1,
      state: "active",
      since: 0,
      modRevision: "1",
    };
    const node = { name: "n1", etcd, placements: new Map([[t.tenantKey, placement]]), written: new Set<string>() };
    // As a cluster node's write guard does: every write to a tenant file notes the school.
    rt.tenants.guard = (tenantId) => node.written.add(tenantId);
    const tick = directoryPublisher(rt, node as unknown as ClusterNode);
    // The fixtures' writes commit at the end of this event-loop turn; a node's tick runs in a turn of its own.
    await settled();

    await tick();
    expect(ops.splice(0).sort()).toEqual([`put ${member.email}/${t.tenantKey}`, `put ${t.email}/${t.tenantKey}`]);

    const otherTable = async (description: string) => {
      expect((await api.as(t).patch("/tenant", { description })).status).toBe(200);
      expect(node.written.has(t.tenantId)).toBe(true);
      await tick();
      expect(ops).toEqual([]);
      expect(node.written.has(t.tenantId)).toBe(false);
    };
    // The list is cached from the handle's second read on (docs/rules/performance.md#caches).
    await otherTable("Exam week");

    // A change behind the server's connection (as a CLI's) is seen only by a tick that reads the members.
    const other = new Database(rt.tenants.fileOf(t.tenantId));
    other.run("UPDATE members SET email_verified_at = NULL WHERE id = ?", [t.memberId]);
    other.close();
    await otherTable("Exam week, day 2");

    expect((await api.as(t).patch(`/members/${member.memberId}`, { isActive: false })).status).toBe(200);
    await tick();
    expect(ops.splice(0).sort()).toEqual([`delete ${member.email}/${t.tenantKey}`, `delete ${t.email}/${t.tenantKey}`]);

    // Nothing written since: nothing read or sent.
    await tick();
    expect(ops).toEqual([]);
  });
});

describe("the home node of an e-mail", () => {
  test("the same node whatever the order the nodes are listed in; e-mails spread over the nodes", () => {
    const nodes = ["n1", "n2", "n3"];
    const homes = new Map<string, number>();
    for (let i = 0; i < 300; i++) {
      const email = `user${i}@example.com`;
      const home = homeNodeOf(email, nodes) as string;
      expect(homeNodeOf(email, [...nodes].reverse())).toBe(home);
      homes.set(home, (homes.get(home) ?? 0) + 1);
    }
    expect([...homes.values()].every((n) => n > 60)).toBe(true);
    expect(homeNodeOf("a@b.c", [])).toBeNull();
  });

  test("a node leaving moves only the e-mails it was home to", () => {
    for (let i = 0; i < 100; i++) {
      const email = `user${i}@example.com`;
      const before = homeNodeOf(email, ["n1", "n2", "n3"]);
      if (before !== "n3") expect(homeNodeOf(email, ["n1", "n2"])).toBe(before);
    }
  });
});

describe("askPeer: a node's problem is the same problem here", () => {
  let server: ReturnType<typeof Bun.serve>;
  beforeAll(() => {
    server = Bun.serve({
      port: 0,
      fetch: (req) =>
        new URL(req.url).pathname === "/_cluster/ok"
          ? Response.json({ fine: true })
          : Response.json(
              { status: 503, code: "TENANT_MOVING", detail: "moving", errors: [] },
              { status: 503, headers: { "content-type": "application/problem+json", "retry-after": "2" } },
            ),
    });
  });
  afterAll(() => server.stop(true));

  test("status, code and Retry-After kept; an answer passed through; a node out of reach is 503 NODE_UNAVAILABLE", async () => {
    const base = `http://127.0.0.1:${server.port}`;
    expect(await askPeer("s".repeat(20), base, "/_cluster/ok", {})).toEqual({ fine: true });
    const moving = await askPeer<Problem>("s".repeat(20), base, "/_cluster/auth/x", {}).catch((e: Problem) => e);
    expect(moving).toBeInstanceOf(Problem);
    expect([moving.status, moving.code, moving.headers?.["retry-after"]]).toEqual([503, "TENANT_MOVING", "2"]);
    const gone = await askPeer<Problem>("s".repeat(20), "http://127.0.0.1:1", "/_cluster/ok", {}).catch((e: Problem) => e);
    expect([gone.status, gone.code]).toEqual([503, "NODE_UNAVAILABLE"]);
  });
});
