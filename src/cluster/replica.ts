import { Database } from "bun:sqlite";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { removeTenantFile } from "../modules/tenant/provision";
import { platformReplicaName } from "../platform/replica/litestream";
import { restoreReplicaFile, restoreTenantFromReplica } from "../platform/replica/restore";
import type { Runtime } from "../platform/runtime";
import { platformRowsOf } from "./handoff";

/**
 * Failover's restorer (docs/rules/cluster.md#failover), on replication's restore: the school's file
 * from the dead node's replica under the same id (a stale copy this node kept from before a move
 * is removed first), and, at the same time, that node's replicated platform file, from which the
 * school's platform rows are read (so its sessions and tokens keep working). Both are as of the
 * replica's last sync: the RPO.
 */
export async function restoreFromReplica(rt: Runtime, opts: { tenantId: string; replicaUrl: string }) {
  removeTenantFile(rt, opts.tenantId);
  const scratch = join(rt.config.dataDir, "tenants", `.failover-${opts.tenantId}-platform.sqlite`);
  rmSync(scratch, { force: true });
  try {
    const [file, platform] = await Promise.all([
      restoreTenantFromReplica({ replicaUrl: opts.replicaUrl, dataDir: rt.config.dataDir, tenantId: opts.tenantId }),
      restoreReplicaFile({ replicaUrl: opts.replicaUrl, name: platformReplicaName, out: scratch }).catch((e: Error) => {
        rt.log({ level: "error", event: "cluster.failover.platform-replica", error: e.message });
        return false;
      }),
    ]);
    if (file.tenantId !== opts.tenantId) throw new Error(`tenant ${opts.tenantId} restored under another id`);
    if (!platform) return null;
    const db = new Database(scratch, { readonly: true });
    try {
      return platformRowsOf(db, opts.tenantId);
    } finally {
      db.close();
    }
  } finally {
    for (const suffix of ["", "-wal", "-shm"]) rmSync(scratch + suffix, { force: true });
  }
}
