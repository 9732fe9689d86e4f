import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { syncMap } from "../src/cluster/haproxy";
import { createClusterNode, tenantKeyOf } from "../src/cluster/node";
import { checkPeer, PEER_HEADER, peerHeader } from "../src/cluster/peer";
import { ConfigError, loadConfig } from "../src/config";
import { useServer } from "./helpers/server";

// The whole cluster (etcd ×3, HAProxy, 3 nodes) is proved by scripts/cluster-check.sh; these are its parts.

const token = (claims: object) => `h.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.s`;
const req = (url: string, headers: Record<string, string> = {}) => new Request(`http://node${url}`, { headers });

describe("tenantKeyOf: the school of a request, as HAProxy finds it", () => {
  test("host <key>.<domain> first, then /t/{key}, then /api/v1/public/tenants/{key}, then the token's tkey", () => {
    expect(tenantKeyOf(req("/api/v1/tenant", { host: "Lincoln.learn.example:8443" }), "learn.example")).toBe("lincoln");
    expect(tenantKeyOf(req("/t/oak/login"), "learn.example")).toBe("oak");
    expect(tenantKeyOf(req("/api/v1/public/tenants/elm/login-page"), null)).toBe("elm");
    expect(tenantKeyOf(req("/api/v1/spaces", { authorization: `Bearer ${token({ tkey: "ash" })}` }), null)).toBe("ash");
    expect(tenantKeyOf(req("/t/oak/login", { host: "elm.learn.example" }), "learn.example")).toBe("elm");
  });

  test("none for the bare domain, a deeper host, a keyless token or a token that is not JSON", () => {
    expect(tenantKeyOf(req("/api/v1/tenant", { host: "learn.example" }), "learn.example")).toBeNull();
    expect(tenantKeyOf(req("/api/v1/tenant", { host: "a.b.learn.example" }), "learn.example")).toBeNull();
    expect(tenantKeyOf(req("/api/v1/me", { authorization: `Bearer ${token({ sid: "x" })}` }), null)).toBeNull();
    expect(tenantKeyOf(req("/api/v1/me", { authorization: "Bearer a.%%%.b" }), null)).toBeNull();
  });
});

describe("node-to-node calls are signed with the shared secret", () => {
  const secret = "0123456789abcdef0123";
  const signed = (path: string, header: string, method = "POST") =>
    new Request(`http://n${path}`, { method, headers: { [PEER_HEADER]: header } });

  test("a signature for this method and path within a minute passes", () => {
    const now = Date.now();
    expect(() =>
      checkPeer(secret, signed("/_cluster/tenants/a/freeze", peerHeader(secret, "POST", "/_cluster/tenants/a/freeze", now)), now),
    ).not.toThrow();
  });

  test("another path, method, secret, a stale or a missing header is 401", () => {
    const now = Date.now();
    const h = peerHeader(secret, "POST", "/_cluster/tenants/a/freeze", now);
    for (const [r, at] of [
      [signed("/_cluster/tenants/b/freeze", h), now],
      [signed("/_cluster/tenants/a/freeze", h, "GET"), now],
      [signed("/_cluster/tenants/a/freeze", peerHeader("another-secret-0123456", "POST", "/_cluster/tenants/a/freeze", now)), now],
      [signed("/_cluster/tenants/a/freeze", h), now + 61_000],
      [new Request("http://n/_cluster/status"), now],
    ] as const) {
      expect(() => checkPeer(secret, r, at)).toThrow("cluster's signature");
    }
  });
});

describe("cluster settings", () => {
  test("bad values name their variable", () => {
    expect(() => loadConfig([], { LEARNSPACE_CLUSTER_ETCD: "etcd:2379" })).toThrow("LEARNSPACE_CLUSTER_ETCD must be");
    expect(() => loadConfig([], { LEARNSPACE_CLUSTER_NODE: "Node 1" })).toThrow("LEARNSPACE_CLUSTER_NODE must be");
    expect(() => loadConfig([], { LEARNSPACE_CLUSTER_HAPROXY: "haproxy" })).toThrow("LEARNSPACE_CLUSTER_HAPROXY must be");
    expect(() => loadConfig([], { LEARNSPACE_CLUSTER_LEASE_TTL: "1" })).toThrow("LEARNSPACE_CLUSTER_LEASE_TTL must be");
    const c = loadConfig([], { LEARNSPACE_CLUSTER_ETCD: "http://a:2379, http://b:2379", LEARNSPACE_CLUSTER_NODE: "n1" });
    expect(c.clusterEtcd).toEqual(["http://a:2379", "http://b:2379"]);
  });

  test("etcd without a node name refuses to start", () => {
    const dataDir = mkdtempSync(join(tmpdir(), "learnspace-cluster-"));
    try {
      const config = loadConfig([], { LEARNSPACE_CLUSTER_ETCD: "http://127.0.0.1:1" }, { dataDir, quiet: true });
      expect(() => createClusterNode({ config } as never)).toThrow(ConfigError);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe("one machine (no LEARNSPACE_CLUSTER_ETCD) stays as it was", () => {
  const api = useServer();
  test("no node header, no write guard, the school's URL is the public URL", async () => {
    const res = await fetch(`${api.server.url}/healthz`);
    expect(res.headers.get("x-learnspace-node")).toBeNull();
    expect(api.server.rt.tenants.guard).toBeNull();
    expect(api.server.rt.schoolUrl({ key: "oak" })).toBe(api.server.rt.config.publicUrl);
  });
});

/** A stand-in for HAProxy's runtime API: show/set/add/del map on one map, one batch per connection. */
function fakeHaproxy(map: Map<string, string>, file: string) {
  const seen: string[] = [];
  const server: Server = createServer((socket) => {
    socket.on("data", (data) => {
      const out: string[] = [];
      for (const cmd of data.toString().trim().split(";")) {
        seen.push(cmd);
        const [verb, what, f, key, value] = cmd.trim().split(/\s+/);
        if (f !== file) out.push("Unknown map identifier.\n");
        else if (verb === "show") out.push(`${[...map].map(([k, v], i) => `0x${i} ${k} ${v}`).join("\n")}\n`);
        else if (verb === "set" || verb === "add") map.set(key as string, value as string);
        else if (verb === "del" && what === "map") map.delete(key as string);
      }
      socket.end(out.join(""));
    });
  });
  return { server, seen };
}

describe("syncMap keeps HAProxy's map equal to the placement", () => {
  const sock = join(mkdtempSync(join(tmpdir(), "learnspace-haproxy-")), "admin.sock");
  const map = new Map([
    ["oak", "n1"],
    ["gone", "n2"],
  ]);
  const fake = fakeHaproxy(map, "/etc/haproxy/tenants.map");
  fake.server.listen(sock);
  afterAll(() => fake.server.close());

  test("changes, adds and removes only what differs; a second run changes nothing", async () => {
    const want = new Map([
      ["oak", "n2"],
      ["elm", "n3"],
    ]);
    expect(await syncMap(`unix:${sock}`, "/etc/haproxy/tenants.map", want)).toBe(3);
    expect([...map].sort()).toEqual([
      ["elm", "n3"],
      ["oak", "n2"],
    ]);
    expect(fake.seen).toContain("set map /etc/haproxy/tenants.map oak n2");
    expect(fake.seen).toContain("add map /etc/haproxy/tenants.map elm n3");
    expect(fake.seen).toContain("del map /etc/haproxy/tenants.map gone");
    expect(await syncMap(`unix:${sock}`, "/etc/haproxy/tenants.map", want)).toBe(0);
  });

  test("an unknown map is an error, not an empty map", async () => {
    await expect(syncMap(`unix:${sock}`, "/other.map", new Map())).rejects.toThrow("knows no map");
  });

  test("a key HAProxy's command syntax could misread is never sent", async () => {
    const before = fake.seen.length;
    await syncMap(`unix:${sock}`, "/etc/haproxy/tenants.map", new Map([...map, ["bad;del", "n1"]]));
    expect(fake.seen.slice(before).some((c) => c.includes("bad"))).toBe(false);
  });
});
