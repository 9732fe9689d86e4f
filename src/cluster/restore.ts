import { registerTenantFile } from "../modules/tenant/transfer";
import { tenantById } from "../platform/db/registry";
import { conflict } from "../platform/http/errors";
import type { Runtime } from "../platform/runtime";
import type { ClusterNode } from "./node";

/**
 * Brings one school's file back from the replica of the node that held it, into this node's
 * `tenants/<id>.sqlite` (docs/rules/cluster.md#failover). Provided by replication; null until then.
 */
export type ReplicaRestorer = (rt: Runtime, opts: { tenantId: string; key: string; fromNode: string }) => Promise<void>;

let restorer: ReplicaRestorer | null = null;

export function setReplicaRestorer(fn: ReplicaRestorer) {
  restorer = fn;
}

/** Failover, on the node the agent chose: restore from the dead node's replica, then register the school here. */
export async function restoreHere(rt: Runtime, node: ClusterNode, key: string, tenantId: string, body: { from: string }) {
  const p = node.placements.get(key);
  if (!p || p.node !== node.name || p.state !== "restoring") {
    throw conflict("NOT_RESTORING_HERE", `School ${key} is not being restored on this node.`);
  }
  if (!restorer) throw conflict("NO_REPLICA", "This node has no replica to restore from (LEARNSPACE_REPLICA_URL).");
  const t0 = performance.now();
  node.adopting.add(tenantId);
  try {
    rt.tenants.drop(tenantId);
    await restorer(rt, { tenantId, key, fromNode: body.from });
    if (!tenantById(rt.platform.db, tenantId)) registerTenantFile(rt, tenantId, key);
  } finally {
    node.adopting.delete(tenantId);
  }
  return { restored: key, ms: Math.round(performance.now() - t0) };
}
