import type { Etcd3 } from "etcd3";
import type { CodeKey } from "../modules/auth/codes";
import { type Membership, membershipsOf } from "../modules/auth/identity";
import type { RemoteAuth, RemoteOp } from "../modules/auth/remote";
import { cachedProvedMemberEmails, type ProvedEmail } from "../modules/members/directory";
import { nodeCrypto } from "../platform/crypto";
import { tenantById } from "../platform/db/registry";
import type { Runtime } from "../platform/runtime";
import { DIRECTORY } from "./etcd";
import type { ClusterNode } from "./node";
import { askPeer } from "./peer";

/** etcd allows 128 operations in one transaction; a school's changes are written in batches of this many. */
const BATCH = 100;

/** `directory/<email>/<tenantKey>` → [email, tenantKey]; a tenant key never holds a "/". */
function parseKey(key: string): [string, string] | null {
  const rest = key.slice(DIRECTORY.length);
  const at = rest.lastIndexOf("/");
  return at > 0 ? [rest.slice(0, at), rest.slice(at + 1)] : null;
}

/** What etcd's directory holds, by school (read once when this node starts publishing a school). */
async function readDirectory(etcd: Etcd3): Promise<Map<string, Map<string, string>>> {
  const all = await etcd.getAll().prefix(DIRECTORY).strings();
  const out = new Map<string, Map<string, string>>();
  for (const [k, memberId] of Object.entries(all)) {
    const parsed = parseKey(k);
    if (!parsed) continue;
    const [email, tenantKey] = parsed;
    const entries = out.get(tenantKey) ?? new Map<string, string>();
    out.set(tenantKey, entries.set(email, memberId));
  }
  return out;
}

/**
 * Keeps etcd's e-mail directory in step with the schools this node serves
 * (docs/rules/cluster.md#e-mail-directory): a school is published in full when this node starts
 * serving it (its first tick, a move's or a failover's adoption), and again after each tick in
 * which its members changed (the write guard notes a written school; the members list is cached
 * until a write to `members`, so another table's writes cost no read). Only the differences go to etcd.
 */
export function directoryPublisher(rt: Runtime, node: ClusterNode) {
  /** What this node last wrote (or found) in etcd, by tenant key, and the members list it was made from. */
  const published = new Map<string, { entries: Map<string, string>; from: readonly ProvedEmail[] }>();
  return async () => {
    const etcd = node.etcd;
    if (!etcd) return;
    const mine = [...node.placements.values()].filter((p) => p.node === node.name && p.state === "active");
    const here = new Set(mine.map((p) => p.key));
    // A school moved away is published by its new node from its file.
    for (const key of published.keys()) if (!here.has(key)) published.delete(key);
    const todo = mine.filter((p) => !published.has(p.key) || node.written.has(p.tenantId));
    if (!todo.length) return;
    const found = todo.some((p) => !published.has(p.key)) ? await readDirectory(etcd) : null;
    for (const p of todo) {
      if (!tenantById(rt.platform.db, p.tenantId)) continue;
      node.written.delete(p.tenantId);
      const last = published.get(p.key);
      const rows = rt.tenants.use(p.tenantId, (h) => cachedProvedMemberEmails(h));
      // The same list: no member changed since it was published.
      if (rows === last?.from) continue;
      const had = last?.entries ?? found?.get(p.key) ?? new Map<string, string>();
      const want = new Map(rows.map((m) => [m.email, m.memberId]));
      const ops: (() => Promise<unknown>)[] = [];
      for (const [email, memberId] of want) {
        if (had.get(email) !== memberId) ops.push(() => etcd.put(`${DIRECTORY}${email}/${p.key}`).value(memberId).exec());
      }
      for (const email of had.keys()) if (!want.has(email)) ops.push(() => etcd.delete().key(`${DIRECTORY}${email}/${p.key}`).exec());
      try {
        for (let i = 0; i < ops.length; i += BATCH) await Promise.all(ops.slice(i, i + BATCH).map((op) => op()));
      } catch (e) {
        node.written.add(p.tenantId);
        throw e;
      }
      published.set(p.key, { entries: want, from: rows });
      if (ops.length) rt.log({ event: "cluster.directory", tenant: p.key, changes: ops.length });
    }
  };
}

/** The node an e-mail's platform codes live on: highest hash of (e-mail, node) among the live nodes. */
export function homeNodeOf(email: string, names: Iterable<string>): string | null {
  let best: string | null = null;
  let bestScore = "";
  for (const name of names) {
    const score = nodeCrypto().createHash("sha256").update(`${email}\n${name}`).digest("hex");
    if (score > bestScore) [best, bestScore] = [name, score];
  }
  return best;
}

/** This node's memberships of an e-mail, for another node: its own schools only (not a stale copy). */
export function localMemberships(rt: Runtime, node: ClusterNode, email: string): Membership[] {
  return membershipsOf(rt, email).filter((m) => node.placements.get(m.tenant.key)?.node === node.name);
}

/** The cluster's side of sign-in without a tenant key (docs/rules/cluster.md#sign-in-without-a-tenant-key). */
export function remoteAuthOf(rt: Runtime, node: ClusterNode): RemoteAuth {
  const urlOf = (name: string) => node.nodes.get(name)?.url ?? "http://node-gone.invalid";
  const ask = <T>(name: string, path: string, body: unknown) => askPeer<T>(rt.secret, urlOf(name), path, body);
  return {
    async memberships(email) {
      const etcd = node.etcd;
      if (!etcd) return [];
      const keys = await etcd.getAll().prefix(`${DIRECTORY}${email}/`).keys();
      const byNode = new Map<string, Set<string>>();
      for (const k of keys) {
        const tenantKey = parseKey(k)?.[1];
        const at = tenantKey ? node.placements.get(tenantKey)?.node : undefined;
        if (!tenantKey || !at || at === node.name) continue;
        if (!byNode.has(at)) byNode.set(at, new Set());
        byNode.get(at)?.add(tenantKey);
      }
      const answers = await Promise.all(
        [...byNode].map(async ([name, expected]) => {
          try {
            const list = await ask<Membership[]>(name, "/_cluster/memberships", { email });
            return list.filter((m) => expected.has(m.tenant.key));
          } catch (e) {
            rt.log({ level: "warn", event: "cluster.memberships-failed", node: name, error: (e as Error).message });
            return [];
          }
        }),
      );
      return answers.flat();
    },
    nodeOf(tenantKey) {
      const at = node.placements.get(tenantKey)?.node;
      return at && at !== node.name ? at : null;
    },
    homeOf(email) {
      const home = homeNodeOf(email, node.nodes.keys());
      return home && home !== node.name ? home : null;
    },
    run: <T>(name: string, op: RemoteOp, input: unknown) => ask<T>(name, `/_cluster/auth/${op}`, input),
    async checkCode(name: string, key: CodeKey, code: string, consume: boolean) {
      await ask(name, "/_cluster/codes/check", { key, code, consume });
    },
  };
}
