import { memberEmails } from "../modules/members/directory";
import { registerTenantFile } from "../modules/tenant/transfer";
import { replaceTenantIndex, tenantById } from "../platform/db/registry";
import { write } from "../platform/db/types";
import { conflict } from "../platform/http/errors";
import type { Runtime } from "../platform/runtime";
import { readPlacement, readReplicaUrl } from "./etcd";
import { importPlatform, type PlatformRows } from "./handoff";
import type { ClusterNode } from "./node";

/**
 * Brings one school's file back from the replica of the node that held it, into this node's
 * `tenants/<tenantId>.sqlite` (docs/rules/cluster.md#failover), and returns the school's platform
 * rows (registry row, sessions, accounts) as that node's replicated platform file holds them, or
 * null when it holds none. Registered by src/app.ts in cluster mode; null until then.
 */
export type ReplicaRestorer = (rt: Runtime, opts: { tenantId: string; replicaUrl: string }) => Promise<PlatformRows | null>;

let restorer: ReplicaRestorer | null = null;

export function setReplicaRestorer(fn: ReplicaRestorer) {
  restorer = fn;
}

/** The placement says this node restores the school (fresh from etcd when this node's watch has not seen it yet). */
async function restoringHere(node: ClusterNode, key: string, tenantId: string) {
  const seen = node.placements.get(key);
  const p = seen?.state === "restoring" && seen.node === node.name ? seen : node.etcd ? await readPlacement(node.etcd, key) : null;
  if (!p || p.node !== node.name || p.state !== "restoring" || p.tenantId !== tenantId) {
    throw conflict("NOT_RESTORING_HERE", `School ${key} is not being restored on this node.`);
  }
}

/**
 * Failover, on the node the agent chose: the school's file and platform rows from the dead node's
 * replica (its URL as that node published it in etcd), then its e-mail directory from the file.
 */
export async function restoreHere(rt: Runtime, node: ClusterNode, key: string, tenantId: string, body: { from: string }) {
  await restoringHere(node, key, tenantId);
  const replicaUrl = node.etcd ? await readReplicaUrl(node.etcd, body.from) : null;
  if (!replicaUrl) throw conflict("NO_REPLICA", `Node ${body.from} published no replica (LEARNSPACE_REPLICA_URL) to restore ${key} from.`);
  if (!restorer) throw conflict("NO_REPLICA", "This node cannot restore from a replica.");
  const t0 = performance.now();
  node.adopting.add(tenantId);
  try {
    rt.tenants.drop(tenantId);
    const rows = await restorer(rt, { tenantId, replicaUrl });
    if (rows?.tenants.some((t) => t.id === tenantId)) importPlatform(rt, node, key, rows);
    else if (!tenantById(rt.platform.db, tenantId)) registerTenantFile(rt, tenantId, key);
    // The file is newer than the platform replica's directory rows may be.
    const members = rt.tenants.use(tenantId, (h) => memberEmails(h.db));
    write(rt.platform.db, (tx) => replaceTenantIndex(tx, tenantId, members));
    return { restored: key, sessions: rows?.sessions.length ?? 0, ms: Math.round(performance.now() - t0) };
  } finally {
    node.adopting.delete(tenantId);
  }
}
