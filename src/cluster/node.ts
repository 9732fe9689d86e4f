import type { Etcd3, Lease, Watcher } from "etcd3";
import { ConfigError } from "../config";
import { listTenantRows } from "../platform/db/registry";
import { Problem } from "../platform/http/errors";
import type { Runtime } from "../platform/runtime";
import {
  connectEtcd,
  NODES,
  type NodeInfo,
  PLACEMENT,
  type PlacementAt,
  parsePlacement,
  REPLICAS,
  readNodes,
  readPlacements,
  swapPlacement,
} from "./etcd";

/** The response header that names the node which answered (docs/rules/cluster.md#routing). */
export const NODE_HEADER = "x-learnspace-node";

const READS = new Set(["GET", "HEAD", "OPTIONS"]);

export const misdirected = (key: string, node: string) =>
  new Problem(421, "MISDIRECTED_REQUEST", `School ${key} is served by node ${node}, not this one; send the request again.`, undefined, {
    "retry-after": "1",
  });
export const tenantMoving = () =>
  new Problem(503, "TENANT_MOVING", "This school is moving to another node; writes resume in a few seconds.", undefined, {
    "retry-after": "2",
  });
export const nodeFenced = () =>
  new Problem(503, "NODE_FENCED", "This node has lost touch with the cluster and stopped writing; retry shortly.", undefined, {
    "retry-after": "2",
  });

/** The path of a request; an HTTP/1.0 health check without a Host header has a relative URL. */
export const pathOf = (request: Request) => new URL(request.url, "http://localhost").pathname;

/** The school a request is for, as HAProxy finds it: host `<key>.<domain>`, then the path, then the token's claim. */
export function tenantKeyOf(request: Request, domain: string | null): string | null {
  if (domain) {
    const host = (request.headers.get("host") ?? "").toLowerCase().replace(/:\d+$/, "");
    if (host.endsWith(`.${domain}`)) {
      const label = host.slice(0, -domain.length - 1);
      if (label && !label.includes(".")) return label;
    }
  }
  const path = pathOf(request);
  const m = /^\/(?:t|api\/v1\/public\/tenants)\/([^/]+)(?:\/|$)/.exec(path);
  if (m) return decodeURIComponent(m[1] as string);
  const bearer = /^bearer\s+(\S+)\s*$/i.exec(request.headers.get("authorization") ?? "")?.[1];
  const payload = bearer?.split(".")[1];
  if (!payload) return null;
  try {
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as { tkey?: unknown };
    return typeof claims.tkey === "string" ? claims.tkey : null;
  } catch {
    return null;
  }
}

export type ClusterNode = ReturnType<typeof createClusterNode>;

/**
 * One appliance's part in the cluster: its registration under an etcd lease, its copy of the
 * placement (loaded, then watched), and the two checks built on them: the request gate and the
 * write guard (docs/rules/cluster.md#fencing).
 */
export function createClusterNode(rt: Runtime) {
  const config = rt.config;
  if (!config.clusterNode) throw new ConfigError("LEARNSPACE_CLUSTER_ETCD needs LEARNSPACE_CLUSTER_NODE (this node's name)");
  const name = config.clusterNode;
  const ttlMs = config.clusterLeaseTtl * 1000;
  const placements = new Map<string, PlacementAt>();
  const byId = new Map<string, PlacementAt>();
  /** Tenant ids whose writes are refused here while a handoff copies them. */
  const frozen = new Set<string>();
  /** Tenant ids being restored here by a failover: their registration may write while the placement says "restoring". */
  const adopting = new Set<string>();
  /** Write requests in progress, by tenant key (a freeze waits for them). */
  const writing = new Map<string, number>();
  /** Tenant ids written since the e-mail directory last looked (docs/rules/cluster.md#e-mail-directory). */
  const written = new Set<string>();
  /** The live nodes as last read (at registration and every tick): the home of an e-mail is chosen among them. */
  const nodes = new Map<string, NodeInfo>();
  const refreshNodes = async () => {
    if (!etcd) return;
    const fresh = await readNodes(etcd);
    nodes.clear();
    for (const [k, v] of fresh) nodes.set(k, v);
  };
  let etcd: Etcd3 | null = null;
  let lease: Lease | null = null;
  let watcher: Watcher | null = null;
  let ready = false;
  let lastKeepalive = 0;
  let stopped = false;
  let timer: ReturnType<typeof setInterval> | null = null;
  let url = config.clusterUrl ?? "";
  const hooks: (() => Promise<void>)[] = [];

  /** The lease may already be gone in etcd well before the client says so: stop at two thirds of its life. */
  const fenced = () => !ready || Date.now() - lastKeepalive > (ttlMs * 2) / 3;

  const apply = (p: PlacementAt) => {
    const old = placements.get(p.key);
    if (old && BigInt(old.modRevision) >= BigInt(p.modRevision)) return;
    if (old) byId.delete(old.tenantId);
    placements.set(p.key, p);
    byId.set(p.tenantId, p);
  };
  const remove = (key: string) => {
    const old = placements.get(key);
    if (!old) return;
    placements.delete(key);
    byId.delete(old.tenantId);
  };

  /** Local schools nobody placed yet (new ones, or every one at the first start) are placed here. */
  const claimLocal = async () => {
    if (!etcd) return;
    for (const row of listTenantRows(rt.platform.db)) {
      if (placements.has(row.key) || byId.has(row.id)) continue;
      const next = { tenantId: row.id, node: name, epoch: 1, state: "active" as const, since: Date.now() };
      if (await swapPlacement(etcd, row.key, "0", next)) rt.log({ event: "cluster.claimed", tenant: row.key });
    }
  };

  /** Lease, node key, a fresh read of the placement and a watch from just after it; then serving starts. */
  const register = async () => {
    if (!etcd) etcd = await connectEtcd(config.clusterEtcd as string[]);
    const client = etcd;
    lease = client.lease(config.clusterLeaseTtl);
    const mine = lease;
    mine.on("keepaliveSucceeded", () => {
      if (lease === mine) lastKeepalive = Date.now();
    });
    mine.on("lost", (e) => {
      if (lease !== mine || stopped) return;
      ready = false;
      rt.log({ level: "error", event: "cluster.lease-lost", node: name, error: String(e?.message ?? e) });
      void retry();
    });
    // The replica URL outlives the lease: a failover restores from it once this node is gone.
    const replica = config.replicaUrl;
    if (replica) await client.put(REPLICAS + name).value(replica);
    else await client.delete().key(REPLICAS + name);
    await mine.put(NODES + name).value(JSON.stringify({ name, url, since: Date.now(), replica }));
    lastKeepalive = Date.now();
    await refreshNodes();
    const { placements: fresh, revision } = await readPlacements(client);
    placements.clear();
    byId.clear();
    for (const p of fresh.values()) apply(p);
    await watcher?.cancel();
    watcher = await client
      .watch()
      .prefix(PLACEMENT)
      .startRevision(String(BigInt(revision) + 1n))
      .create();
    watcher.on("put", (kv) => {
      const key = kv.key.toString().slice(PLACEMENT.length);
      const p = parsePlacement(key, kv.value.toString(), kv.mod_revision);
      if (p) apply(p);
    });
    watcher.on("delete", (kv) => remove(kv.key.toString().slice(PLACEMENT.length)));
    await claimLocal();
    ready = true;
    rt.log({ event: "cluster.registered", node: name, url, tenants: [...placements.values()].filter((p) => p.node === name).length });
  };

  const retry = async () => {
    while (!stopped) {
      try {
        await register();
        return;
      } catch (e) {
        rt.log({ level: "error", event: "cluster.register-failed", node: name, error: (e as Error).message });
        await Bun.sleep(1_000);
      }
    }
  };

  return {
    name,
    placements,
    byId,
    frozen,
    adopting,
    writing,
    written,
    nodes,
    fenced,
    get etcd() {
      return etcd;
    },
    get url() {
      return url;
    },

    /** `<scheme>://<key>.<domain>[:port]` of a school when a domain is set (docs/rules/cluster.md#routing). */
    schoolUrl(tenant: { key?: string; id?: string }): string {
      const key = tenant.key ?? (tenant.id ? byId.get(tenant.id)?.key : undefined);
      if (!config.clusterDomain || !key) return config.publicUrl;
      const u = new URL(config.publicUrl);
      u.hostname = `${key}.${config.clusterDomain}`;
      return u.origin;
    },

    /** The write guard: every write to a tenant file asks it first. */
    guardWrite(tenantId: string) {
      if (fenced()) throw nodeFenced();
      if (frozen.has(tenantId)) throw tenantMoving();
      const p = byId.get(tenantId);
      if (p && p.node !== name) throw misdirected(p.key, p.node);
      if (p && p.state !== "active" && !(p.state === "restoring" && adopting.has(tenantId))) throw tenantMoving();
      written.add(tenantId);
    },

    /** The request gate: a school's request is served only where the placement says; returns the key of a write request to count. */
    gate(request: Request): string | null {
      const key = tenantKeyOf(request, config.clusterDomain);
      if (!key) return null;
      const p = placements.get(key);
      if (fenced()) throw nodeFenced();
      if (p && p.node !== name) throw misdirected(key, p.node);
      if (p && p.state !== "active" && (p.state !== "moving" || !READS.has(request.method))) throw tenantMoving();
      if (READS.has(request.method)) return null;
      writing.set(key, (writing.get(key) ?? 0) + 1);
      return key;
    },
    done(key: string) {
      const n = (writing.get(key) ?? 1) - 1;
      if (n > 0) writing.set(key, n);
      else writing.delete(key);
    },

    /** Runs after registration and every 2 s: hooks such as the directory's publication. */
    onTick(fn: () => Promise<void>) {
      hooks.push(fn);
    },

    start(port: number) {
      url ||= `http://127.0.0.1:${port}`;
      void retry();
      let ticking = false;
      timer = setInterval(() => {
        if (!ready || ticking) return;
        ticking = true;
        void (async () => {
          try {
            await claimLocal();
            await refreshNodes();
            for (const h of hooks) await h();
          } catch (e) {
            rt.log({ level: "error", event: "cluster.tick-failed", error: (e as Error).message });
          } finally {
            ticking = false;
          }
        })();
      }, 2_000);
    },

    async stop() {
      stopped = true;
      ready = false;
      if (timer) clearInterval(timer);
      await watcher?.cancel().catch(() => {});
      await lease?.revoke().catch(() => {});
      etcd?.close();
    },
  };
}
