import type { Etcd3 } from "etcd3";
import { startAgent } from "../cluster/agent";
import { connectEtcd, readNodes, readPlacements } from "../cluster/etcd";
import { MoveError, moveTenant } from "../cluster/move";
import { callPeer } from "../cluster/peer";
import { type Config, ConfigError, flag } from "../config";
import { CommandError } from "./snapshot";

export const CLUSTER_USAGE = `Cluster (LEARNSPACE_CLUSTER_ETCD and the nodes' shared LEARNSPACE_SECRET set; docs/operating.md#scale-out-when-one-machine-is-outgrown):
  learnspace cluster status                            nodes, schools, their node, epoch and state, stale copies
  learnspace cluster agent --name NAME                 run the placement agent alone (LEARNSPACE_CLUSTER_HAPROXY)
  learnspace tenant move KEY --to NODE                 move a school live to another node`;

function clusterSettings(config: Config) {
  if (!config.clusterEtcd) throw new ConfigError("LEARNSPACE_CLUSTER_ETCD is not set (etcd URLs, comma-separated)");
  if (!config.secret) throw new ConfigError("LEARNSPACE_SECRET is not set (the secret every node shares)");
  return { etcd: config.clusterEtcd, secret: config.secret };
}

async function withEtcd<T>(config: Config, fn: (etcd: Etcd3, secret: string) => Promise<T>): Promise<T> {
  const { etcd: hosts, secret } = clusterSettings(config);
  const etcd = await connectEtcd(hosts);
  try {
    return await fn(etcd, secret);
  } finally {
    etcd.close();
  }
}

/** `learnspace tenant move KEY --to NODE`: prints the pause the school's writers saw. */
export async function moveCommand(config: Config, key: string | undefined, to: string | undefined): Promise<number> {
  if (!key || !to) throw new CommandError("usage: learnspace tenant move KEY --to NODE");
  return withEtcd(config, async (etcd, secret) => {
    try {
      const r = await moveTenant(etcd, secret, key, to);
      console.log(
        r.moved
          ? `moved ${r.key} from ${r.from} to ${r.to}: writes paused ${r.pauseMs} ms, ${r.bytes} bytes copied`
          : `${r.key} is already on ${r.to}`,
      );
      return 0;
    } catch (e) {
      if (e instanceof MoveError) throw new CommandError(e.message);
      throw e;
    }
  });
}

type NodeStatus = { node: string; fenced: boolean; tenants: { key: string; placedHere: boolean }[] };

async function status(config: Config) {
  await withEtcd(config, async (etcd, secret) => {
    const [nodes, { placements, revision }] = await Promise.all([readNodes(etcd), readPlacements(etcd)]);
    console.log(`etcd revision ${revision}`);
    console.log(["NODE", "URL", "UP", "SCHOOLS", "STALE", "FENCED"].join("\t"));
    for (const n of nodes.values()) {
      const seen = await callPeer(secret, n.url, "GET", "/_cluster/status")
        .then((r) => r.json() as Promise<NodeStatus>)
        .catch(() => null);
      const held = [...placements.values()].filter((p) => p.node === n.name).length;
      const stale = seen
        ? seen.tenants
            .filter((t) => !t.placedHere)
            .map((t) => t.key)
            .join(",") || "-"
        : "?";
      const up = `${Math.round((Date.now() - n.since) / 1000)}s`;
      console.log([n.name, n.url, up, held, stale, seen ? seen.fenced : "unreachable"].join("\t"));
    }
    console.log(["SCHOOL", "NODE", "EPOCH", "STATE", "FOR"].join("\t"));
    for (const p of [...placements.values()].sort((a, b) => a.key.localeCompare(b.key))) {
      const live = nodes.has(p.node) ? "" : " (node down)";
      console.log([p.key, p.node + live, p.epoch, p.state, `${Math.round((Date.now() - p.since) / 1000)}s`].join("\t"));
    }
  });
}

/** The agent without a server: beside HAProxy, for example. Runs until SIGTERM. */
function agent(config: Config, name: string | undefined) {
  const { etcd, secret } = clusterSettings(config);
  if (!config.clusterHaproxy) throw new ConfigError("LEARNSPACE_CLUSTER_HAPROXY is not set (HAProxy's runtime API)");
  const log = (line: object) => console.log(JSON.stringify({ time: new Date().toISOString(), ...line }));
  const running = startAgent({
    etcd,
    secret,
    name: name ?? `agent-${process.pid}`,
    haproxy: config.clusterHaproxy,
    map: config.clusterHaproxyMap,
    ttl: config.clusterLeaseTtl,
    log,
  });
  const stop = () => void running.stop().then(() => process.exit(0));
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

export async function clusterCommand(config: Config, args: string[]): Promise<number | null> {
  switch (args[0]) {
    case "status":
      await status(config);
      return 0;
    case "agent":
      agent(config, flag(args, "name"));
      return null;
    default:
      console.error(CLUSTER_USAGE);
      return 2;
  }
}
