import { checkSignInCode, requestSignInCode, signInWithCode } from "../modules/auth/account";
import { type CodeKey, checkCode } from "../modules/auth/codes";
import { answerForwarded, type RemoteOp } from "../modules/auth/remote";
import { signInWithPassword } from "../modules/auth/sign-in";
import { notFound } from "../platform/http/errors";
import type { Runtime } from "../platform/runtime";
import { type ClusterNode, tenantMoving } from "./node";

type Input = { email: string; code: string; tenantKey: string; identifier: string; password: string };

/** The auth operations another node may pass here (docs/rules/cluster.md#sign-in-without-a-tenant-key). */
const OPS: Record<RemoteOp, (rt: Runtime, input: Input) => Promise<unknown>> = {
  requestSignInCode: (rt, email) => requestSignInCode(rt, email as unknown as string),
  checkSignInCode: (rt, input) => checkSignInCode(rt, input),
  signInWithCode: (rt, input) => signInWithCode(rt, input),
  signInWithPassword: (rt, input) => signInWithPassword(rt, input),
};

/**
 * Runs an auth operation another node received: answered here whatever this node finds (never
 * passed on again). A school that is moving refuses it as its own requests are refused.
 */
export function answerHere(rt: Runtime, node: ClusterNode, op: string, input: unknown) {
  const run = OPS[op as RemoteOp];
  if (!run) throw notFound();
  const key = (input as Partial<Input> | null)?.tenantKey;
  const p = key ? node.placements.get(key) : undefined;
  if (p && p.node === node.name && p.state !== "active") throw tenantMoving();
  return answerForwarded(() => run(rt, input as Input));
}

export type CodeCheck = { key: CodeKey; code: string; consume: boolean };

/** A platform code kept here, checked for another node (wrong tries count here). */
export function checkCodeHere(rt: Runtime, input: CodeCheck) {
  checkCode(rt, [{ email: input.key.email, purpose: input.key.purpose, scope: "" }], input.code, input.consume);
  return { ok: true };
}
