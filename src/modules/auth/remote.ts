import { AsyncLocalStorage } from "node:async_hooks";
import type { TenantRow } from "../../platform/db/registry";
import type { Runtime } from "../../platform/runtime";
import type { CodeKey } from "./codes";

/** A school an e-mail is a member of, with its e-mail proved there (membershipsOf). */
export type Membership = { tenant: TenantRow; memberId: string; owned: boolean; logoImageUrl: string | null };

/** The auth operations another node may be asked to run for a request it did not receive. */
export type RemoteOp = "requestSignInCode" | "checkSignInCode" | "signInWithCode" | "signInWithPassword";

/**
 * What sign-in without a tenant key needs from the other nodes of a cluster
 * (docs/rules/cluster.md#sign-in-without-a-tenant-key). Registered by the cluster (src/app.ts) in
 * cluster mode only: one machine has none and nothing of its sign-in changes.
 */
export type RemoteAuth = {
  /** The memberships of the e-mail in schools other nodes hold, checked by those nodes (one call per node). */
  memberships(email: string): Promise<Membership[]>;
  /** The node holding a school when it is not this one (null: here, or unknown). */
  nodeOf(tenantKey: string): string | null;
  /** The node keeping the e-mail's platform codes when it is not this one (null: this one). */
  homeOf(email: string): string | null;
  /** Runs an operation on another node: its answer, or its problem thrown here. */
  run<T>(node: string, op: RemoteOp, input: unknown): Promise<T>;
  /** Checks (and with `consume` uses up) a platform code on the node keeping it. */
  checkCode(node: string, key: CodeKey, code: string, consume: boolean): Promise<void>;
};

const bridges = new WeakMap<Runtime, RemoteAuth>();
/** Set while an operation runs for another node: it is answered here, never passed on again. */
const forwarded = new AsyncLocalStorage<true>();

export function setRemoteAuth(rt: Runtime, bridge: RemoteAuth) {
  bridges.set(rt, bridge);
}

/** The cluster's auth bridge, for lookups (null outside cluster mode). */
export const remoteAuth = (rt: Runtime): RemoteAuth | null => bridges.get(rt) ?? null;

/** The bridge when this request may still be passed to another node (not when it came from one). */
export const forwarder = (rt: Runtime): RemoteAuth | null => (forwarded.getStore() ? null : remoteAuth(rt));

/** Runs an operation another node passed here: it is answered on this node whatever it finds. */
export const answerForwarded = <T>(fn: () => T): T => forwarded.run(true, fn);
