import type { Etcd3 } from "etcd3";
import { type PlacementAt, readNodes, readPlacement, swapPlacement } from "./etcd";
import { callPeer } from "./peer";

export class MoveError extends Error {}

/**
 * `learnspace tenant move KEY --to NODE` (docs/rules/cluster.md#moving-a-school): placement
 * "moving" (the source answers writes 503 TENANT_MOVING), freeze on the source (accepted writes
 * finish and commit), copy the file and the school's platform rows to the target, flip the
 * placement to the target with the next epoch, release the source. Any failure before the flip
 * puts the school back, active on the source.
 */
export async function moveTenant(etcd: Etcd3, secret: string, key: string, to: string, log: (line: object) => void = () => {}) {
  const p = await readPlacement(etcd, key);
  if (!p) throw new MoveError(`no school "${key}" in the cluster's placement`);
  if (p.state !== "active") throw new MoveError(`school "${key}" is ${p.state} on ${p.node}; try again once it is active`);
  if (p.node === to) return { key, from: p.node, to, pauseMs: 0, bytes: 0, moved: false };
  const nodes = await readNodes(etcd);
  const source = nodes.get(p.node);
  const target = nodes.get(to);
  if (!target) throw new MoveError(`node "${to}" is not live (known: ${[...nodes.keys()].join(", ") || "none"})`);
  if (!source) throw new MoveError(`node "${p.node}" that holds "${key}" is not live; the agent fails it over`);
  const t0 = performance.now();
  const since = Date.now();
  if (!(await swapPlacement(etcd, key, p.modRevision, { ...strip(p), state: "moving", since }))) {
    throw new MoveError(`the placement of "${key}" changed meanwhile; try again`);
  }
  const moving = (await readPlacement(etcd, key)) as PlacementAt;
  let bytes = 0;
  try {
    const frozen = (await (await callPeer(secret, source.url, "POST", `/_cluster/tenants/${key}/freeze`)).json()) as { drainedMs: number };
    log({ event: "move.frozen", key, drainedMs: frozen.drainedMs });
    const file = await (await callPeer(secret, source.url, "GET", `/_cluster/tenants/${key}/file`)).arrayBuffer();
    bytes = file.byteLength;
    await callPeer(secret, target.url, "PUT", `/_cluster/tenants/${key}/file/${p.tenantId}`, new Uint8Array(file));
    const rows = await (await callPeer(secret, source.url, "GET", `/_cluster/tenants/${key}/platform`)).json();
    await callPeer(secret, target.url, "POST", `/_cluster/tenants/${key}/platform`, rows as object);
    const flipped = await swapPlacement(etcd, key, moving.modRevision, {
      tenantId: p.tenantId,
      node: to,
      epoch: p.epoch + 1,
      state: "active",
      since: Date.now(),
    });
    if (!flipped) throw new MoveError(`the placement of "${key}" changed during the move`);
  } catch (e) {
    const now = await readPlacement(etcd, key);
    if (now && now.modRevision === moving.modRevision) await swapPlacement(etcd, key, now.modRevision, { ...strip(p), since: Date.now() });
    await callPeer(secret, source.url, "POST", `/_cluster/tenants/${key}/thaw`).catch(() => {});
    throw e instanceof MoveError ? e : new MoveError(`move of "${key}" failed, left on ${p.node}: ${(e as Error).message}`);
  }
  const pauseMs = Math.round(performance.now() - t0);
  await callPeer(secret, source.url, "POST", `/_cluster/tenants/${key}/release/${p.tenantId}`).catch((e) =>
    log({ level: "error", event: "move.release-failed", key, error: (e as Error).message }),
  );
  return { key, from: p.node, to, pauseMs, bytes, moved: true };
}

const strip = (p: PlacementAt) => ({ tenantId: p.tenantId, node: p.node, epoch: p.epoch, state: p.state, since: p.since });
