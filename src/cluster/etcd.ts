import type { Etcd3 } from "etcd3";

/**
 * The cluster's state in etcd (docs/rules/cluster.md#keys). Everything lives under one prefix so
 * that one etcd can serve several clusters (a test, a staging one).
 */
export const PREFIX = "/learnspace/";
/** `nodes/<name>` → {url}: written under the node's lease, gone when the node goes silent. */
export const NODES = `${PREFIX}nodes/`;
/** `placement/<tenantKey>` → Placement: which node holds a school, changed only by transactions on its mod_revision. */
export const PLACEMENT = `${PREFIX}placement/`;
/** `directory/<email>/<tenantKey>` → memberId: the e-mail directory across nodes (docs/rules/cluster.md#e-mail-directory). */
export const DIRECTORY = `${PREFIX}directory/`;
/**
 * `replicas/<name>` → the node's replica URL (LEARNSPACE_REPLICA_URL), written without a lease: a
 * failover reads it after the node's own key has expired (docs/rules/cluster.md#failover).
 */
export const REPLICAS = `${PREFIX}replicas/`;
/** The placement agent's election. */
export const AGENT_ELECTION = "learnspace-agent";

export type PlacementState = "active" | "moving" | "restoring" | "lost";

export type Placement = {
  tenantId: string;
  node: string;
  /** +1 at every change of node: a write carries the epoch it was placed under. */
  epoch: number;
  state: PlacementState;
  /** ms since epoch of the last change, for status. */
  since: number;
  /** While restoring: the node whose replica the school comes from. */
  from?: string;
};

export type NodeInfo = { name: string; url: string; since: number; replica?: string | null };

/** A placement as read, with the revision its transaction must name. */
export type PlacementAt = Placement & { key: string; modRevision: string };

export function parsePlacement(key: string, value: string, modRevision: string): PlacementAt | null {
  try {
    const p = JSON.parse(value) as Placement;
    if (typeof p.tenantId !== "string" || typeof p.node !== "string" || typeof p.epoch !== "number") return null;
    return { ...p, key, modRevision };
  } catch {
    return null;
  }
}

/**
 * The etcd client, loaded only in cluster mode: one machine never loads gRPC (zero cost), and the
 * compiled binary resolves the client's protocol files only when asked.
 */
export async function connectEtcd(hosts: string[]): Promise<Etcd3> {
  const { Etcd3: Client } = await import("etcd3");
  return new Client({ hosts, dialTimeout: 3_000 });
}

/** Every placement, keyed by tenant key, with the revision the read was made at. */
export async function readPlacements(etcd: Etcd3): Promise<{ placements: Map<string, PlacementAt>; revision: string }> {
  const res = await etcd.getAll().prefix(PLACEMENT).exec();
  const placements = new Map<string, PlacementAt>();
  for (const kv of res.kvs) {
    const key = kv.key.toString().slice(PLACEMENT.length);
    const p = parsePlacement(key, kv.value.toString(), kv.mod_revision);
    if (p) placements.set(key, p);
  }
  return { placements, revision: res.header.revision };
}

export async function readNodes(etcd: Etcd3): Promise<Map<string, NodeInfo>> {
  const all = await etcd.getAll().prefix(NODES).strings();
  const nodes = new Map<string, NodeInfo>();
  for (const [k, v] of Object.entries(all)) {
    try {
      nodes.set(k.slice(NODES.length), JSON.parse(v) as NodeInfo);
    } catch {}
  }
  return nodes;
}

/** The election key an agent won, with the revision it was created at: its writes name it (docs/rules/cluster.md#placement-agent). */
export type LeaderGuard = { key: string; createRevision: string };

/**
 * Changes one placement if nobody changed it since it was read (`modRevision` "0": if it does not
 * exist yet). The only way placement is written (docs/rules/cluster.md#placement). With `leader`,
 * also only while that election key still exists as created: a deposed agent's write fails.
 */
export async function swapPlacement(
  etcd: Etcd3,
  key: string,
  modRevision: string,
  next: Placement,
  leader?: LeaderGuard,
): Promise<boolean> {
  const cmp = etcd.if(PLACEMENT + key, "Mod", "==", modRevision);
  if (leader) cmp.and(leader.key, "Create", "==", leader.createRevision);
  const res = await cmp.then(etcd.put(PLACEMENT + key).value(JSON.stringify(next))).commit();
  return res.succeeded;
}

/** The replica URL a node published, alive or not (null: it replicates nowhere). */
export async function readReplicaUrl(etcd: Etcd3, node: string): Promise<string | null> {
  return (await etcd.get(REPLICAS + node).string()) || null;
}

/** One placement, fresh from etcd. */
export async function readPlacement(etcd: Etcd3, key: string): Promise<PlacementAt | null> {
  const res = await etcd.get(PLACEMENT + key).exec();
  const kv = res.kvs[0];
  return kv ? parsePlacement(key, kv.value.toString(), kv.mod_revision) : null;
}
