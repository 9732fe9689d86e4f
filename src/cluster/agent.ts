import type { Campaign, Etcd3, Watcher } from "etcd3";
import {
  AGENT_ELECTION,
  connectEtcd,
  type LeaderGuard,
  NODES,
  type NodeInfo,
  PLACEMENT,
  type Placement,
  type PlacementAt,
  readNodes,
  readPlacement,
  readPlacements,
  swapPlacement,
} from "./etcd";
import { syncMap } from "./haproxy";
import { callPeer } from "./peer";

export type AgentOptions = {
  etcd: string[];
  /** Who campaigns: the node's name, or the agent's host. */
  name: string;
  secret: string;
  haproxy: string;
  map: string;
  ttl: number;
  log(line: object): void;
};

/** How often the agent compares HAProxy's map and the nodes with etcd even without a change (an HAProxy restart shows here). */
const TICK_MS = 1_000;
/** A failed restore is tried again after this long. */
const RETRY_MS = 5_000;

/** The node that gets a school whose node died: the live one holding the fewest. */
function leastLoaded(live: Map<string, NodeInfo>, placements: Map<string, PlacementAt>): NodeInfo | null {
  let best: NodeInfo | null = null;
  let bestCount = Number.POSITIVE_INFINITY;
  for (const n of live.values()) {
    const count = [...placements.values()].filter((p) => p.node === n.name).length;
    if (count < bestCount) [best, bestCount] = [n, count];
  }
  return best;
}

/**
 * The placement agent (docs/rules/cluster.md#placement-agent): one active at a time, elected in
 * etcd. While elected it keeps HAProxy's map equal to the placement (every second and at every
 * placement change) and moves the schools of a node whose lease expired to a live node, restored
 * from that node's replica.
 */
export function startAgent(opts: AgentOptions) {
  let etcd: Etcd3 | null = null;
  let campaign: Campaign | null = null;
  let watcher: Watcher | null = null;
  let nodesWatcher: Watcher | null = null;
  let leader = false;
  /** The election key this agent won: every placement write compares on it (docs/rules/cluster.md#placement-agent). */
  let guard: LeaderGuard | null = null;
  let stopped = false;
  let running = false;
  let again = false;
  let mapOk = true;
  const restoring = new Map<string, number>();

  /** Leadership is over (its election key is gone): no more writes, campaign again. */
  const depose = (reason: string) => {
    if (!leader) return;
    leader = false;
    guard = null;
    const old = campaign;
    campaign = null;
    opts.log({ level: "error", event: "cluster.agent.deposed", agent: opts.name, reason });
    void old?.resign().catch(() => {});
    if (!stopped) setTimeout(() => void campaignNow(), 1_000);
  };

  /** A placement write as the elected agent; refused because its election key is gone, it deposes this agent. */
  const swap = async (client: Etcd3, won: LeaderGuard, key: string, modRevision: string, next: Placement) => {
    if (await swapPlacement(client, key, modRevision, next, won)) return true;
    const kv = (await client.get(won.key).exec()).kvs[0];
    if (kv?.create_revision !== won.createRevision) depose("election key gone");
    return false;
  };

  const failover = async (client: Etcd3, won: LeaderGuard, p: PlacementAt, target: NodeInfo, from: string) => {
    restoring.set(p.key, Date.now());
    const t0 = Date.now();
    try {
      let current = p;
      if (p.state !== "restoring" || p.node !== target.name) {
        const next = { tenantId: p.tenantId, node: target.name, epoch: p.epoch + 1, state: "restoring" as const, since: t0, from };
        if (!(await swap(client, won, p.key, p.modRevision, next))) return;
        current = (await readPlacement(client, p.key)) as PlacementAt;
      }
      opts.log({ event: "cluster.failover.start", tenant: p.key, from, to: target.name });
      await callPeer(opts.secret, target.url, "POST", `/_cluster/tenants/${p.key}/restore/${p.tenantId}`, { from });
      const done = { tenantId: p.tenantId, node: target.name, epoch: current.epoch, state: "active" as const, since: Date.now() };
      const ok = await swap(client, won, p.key, current.modRevision, done);
      opts.log({ event: "cluster.failover.done", tenant: p.key, from, to: target.name, ms: Date.now() - t0, ok });
      restoring.delete(p.key);
    } catch (e) {
      opts.log({ level: "error", event: "cluster.failover.failed", tenant: p.key, to: target.name, error: (e as Error).message });
    }
  };

  const tick = async () => {
    if (!leader || !etcd || !guard) return;
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      const client = etcd;
      const won = guard;
      const [{ placements }, live] = await Promise.all([readPlacements(client), readNodes(client)]);
      for (const p of placements.values()) {
        const alive = live.has(p.node);
        const last = restoring.get(p.key);
        if (last !== undefined && Date.now() - last < RETRY_MS) continue;
        if (!alive) {
          const target = leastLoaded(live, placements);
          if (target) void failover(client, won, p, target, p.state === "restoring" ? (p.from ?? p.node) : p.node);
        } else if (p.state === "restoring") {
          void failover(client, won, p, live.get(p.node) as NodeInfo, p.from ?? p.node);
        }
      }
      const want = new Map([...placements.values()].map((p) => [p.key, p.node]));
      const changed = await syncMap(opts.haproxy, opts.map, want);
      if (changed || !mapOk) opts.log({ event: "cluster.map.synced", changed, entries: want.size });
      mapOk = true;
    } catch (e) {
      if (mapOk) opts.log({ level: "error", event: "cluster.agent.tick-failed", error: (e as Error).message });
      mapOk = false;
    } finally {
      running = false;
      if (again) {
        again = false;
        void tick();
      }
    }
  };

  const campaignNow = async () => {
    while (!stopped) {
      try {
        etcd ??= await connectEtcd(opts.etcd);
        const client = etcd;
        const mine = client.election(AGENT_ELECTION, opts.ttl).campaign(opts.name);
        campaign = mine;
        mine.on("elected", () => {
          void (async () => {
            try {
              // The key as it was created when this agent won: gone or re-created, it has been deposed.
              const key = await mine.getCampaignKey();
              const kv = (await client.get(key).exec()).kvs[0];
              if (!kv || campaign !== mine) throw new Error("election key gone");
              guard = { key, createRevision: kv.create_revision };
              leader = true;
              opts.log({ event: "cluster.agent.elected", agent: opts.name });
              void tick();
            } catch (e) {
              if (campaign !== mine) return;
              campaign = null;
              opts.log({ level: "error", event: "cluster.agent.campaign-lost", error: (e as Error).message });
              void mine.resign().catch(() => {});
              if (!stopped) setTimeout(() => void campaignNow(), 1_000);
            }
          })();
        });
        mine.on("error", (e) => {
          if (campaign !== mine) return;
          leader = false;
          guard = null;
          opts.log({ level: "error", event: "cluster.agent.campaign-lost", error: String((e as Error)?.message ?? e) });
          if (!stopped) setTimeout(() => void campaignNow(), 1_000);
        });
        if (!watcher) {
          watcher = await client.watch().prefix(PLACEMENT).create();
          watcher.on("data", () => void tick());
          nodesWatcher = await client.watch().prefix(NODES).create();
          nodesWatcher.on("delete", () => void tick());
        }
        return;
      } catch (e) {
        opts.log({ level: "error", event: "cluster.agent.start-failed", error: (e as Error).message });
        await Bun.sleep(1_000);
      }
    }
  };

  void campaignNow();
  const timer = setInterval(() => void tick(), TICK_MS);
  return {
    get leader() {
      return leader;
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      await watcher?.cancel().catch(() => {});
      await nodesWatcher?.cancel().catch(() => {});
      if (leader) await campaign?.resign().catch(() => {});
      etcd?.close();
    },
  };
}
