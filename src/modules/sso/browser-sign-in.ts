import { FormatRegistry } from "@sinclair/typebox";
import { eq } from "drizzle-orm";
import { mac, sameMac } from "../../platform/crypto";
import { indexMember, type TenantRow, tenantByKey } from "../../platform/db/registry";
import { type Db, write } from "../../platform/db/types";
import { invalid, notFound } from "../../platform/http/errors";
import type { Runtime } from "../../platform/runtime";
import { members } from "../../schema/members";
import { cookieOf } from "../auth/session";
import { insertMember } from "../members/create";
import { roleByKey } from "../roles/builtin";
import type { RefusalCode } from "./refusal";

/**
 * What the browser sign-ins (SAML ACS, OpenID Connect callback) share: the refusal redirect, the
 * returnTo rule, the cookie binding a state to the browser that started it, and member matching.
 */

/** docs/rules/sign-in.md#browser-redirects: the codes a refusal after a valid state redirects with. */
export class Refusal extends Error {
  constructor(
    readonly code: RefusalCode,
    readonly reason: string,
  ) {
    super(reason);
  }
}

export function tenantOr404(rt: Runtime, tenantKey: string): TenantRow {
  const tenant = tenantByKey(rt.platform.db, tenantKey);
  if (!tenant) throw notFound();
  return tenant;
}

/** docs/rules/sign-in.md#browser-redirects: a relative path only (one leading `/`, no `//` or `/\`, no control characters). */
export function checkReturnTo(returnTo: string | undefined, where: "query" | "body" = "query"): string {
  if (returnTo === undefined) return "/";
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (!returnTo.startsWith("/") || returnTo.startsWith("//") || returnTo.startsWith("/\\") || /[\x00-\x1f\x7f]/.test(returnTo)) {
    throw invalid("returnTo", "must be a relative path starting with a single /", where);
  }
  return returnTo;
}

/** returnTo on LEARNSPACE_PUBLIC_URL, with `error=CODE` for a refusal; never a token. */
export function redirectUrl(rt: Runtime, returnTo: string, error?: RefusalCode): string {
  const url = new URL(`${rt.config.publicUrl}${returnTo}`);
  if (error) url.searchParams.append("error", error);
  return url.toString();
}

const isPlainHttp = (rt: Runtime) => rt.config.publicUrl.startsWith("http://");

/**
 * Login-CSRF binding: the browser that starts a sign-in gets a short-lived cookie holding a keyed
 * hash of its state, scoped to the return endpoint, which requires it. The name carries part of the
 * hash, so sign-ins started in two tabs do not replace each other's cookie.
 */
export function stateBinding(rt: Runtime, purpose: string, prefix: string, state: string) {
  const hash = mac(rt.secret, purpose, state);
  return { name: `${prefix}_${hash.slice(0, 16)}`, hash };
}

/**
 * Set-Cookie of a binding (value null: cleared). `crossSitePost`: the provider returns with a
 * cross-site POST (SAML), which carries only a SameSite=None cookie; that needs Secure, so over plain
 * http it falls back to Lax and such a POST arrives without it. A redirect back (GET) carries Lax.
 */
export function bindingCookie(
  rt: Runtime,
  binding: { name: string; hash: string },
  opts: { path: string; maxAgeSeconds: number; cleared?: boolean; crossSitePost: boolean },
): string {
  const site = isPlainHttp(rt) ? ["SameSite=Lax"] : opts.crossSitePost ? ["SameSite=None", "Secure"] : ["SameSite=Lax", "Secure"];
  const value = opts.cleared ? "" : binding.hash;
  return [`${binding.name}=${value}`, `Path=${opts.path}`, `Max-Age=${opts.cleared ? 0 : opts.maxAgeSeconds}`, "HttpOnly", ...site].join(
    "; ",
  );
}

/** SSO_FAILED unless the request carries the binding cookie of this state. */
export function requireBinding(rt: Runtime, request: Request, binding: { name: string; hash: string }, crossSitePost: boolean) {
  const bound = cookieOf(request, binding.name);
  if (bound && sameMac(bound, binding.hash)) return;
  const why =
    crossSitePost && isPlainHttp(rt)
      ? "; over plain http the binding cookie is SameSite=Lax, so a cross-site IdP's POST arrives without it: serve LEARNSPACE_PUBLIC_URL over https"
      : "";
  throw new Refusal("SSO_FAILED", `state not bound to this browser (cookie missing or wrong)${why}`);
}

const DISPLAY_NAME_OUT = /[^\p{L}\p{M}\p{N} _\-[\](){}/*]/gu;
/** A provisioned member's display name (docs/rules/sign-in.md#saml-settings). */
export function cleanDisplayName(raw: string | undefined, email: string): string {
  const base = raw?.trim() || (email.split("@")[0] ?? "");
  return base.replace(DISPLAY_NAME_OUT, "").trim().slice(0, 255) || "SSO user";
}

export type MemberRow = typeof members.$inferSelect;

/**
 * The active member with this (lowercased) e-mail, or one created when `provision` allows it
 * (docs/rules/sign-in.md#saml-settings): NOT_A_MEMBER without one, MEMBER_INACTIVE for an inactive one (never revived).
 */
export function memberForSignIn(
  rt: Runtime,
  tx: Db,
  tenant: TenantRow,
  input: { email: string; displayName: string | undefined; provision: boolean },
  now: number,
): MemberRow {
  const { email } = input;
  let member = tx.select().from(members).where(eq(members.email, email)).get();
  if (!member) {
    const isEmail = email.length <= 255 && (FormatRegistry.Get("ls-email")?.(email) ?? false);
    if (!input.provision || !isEmail) throw new Refusal("NOT_A_MEMBER", "no member with this e-mail");
    const role = roleByKey(tx, "member");
    if (!role) throw new Error("member role missing");
    const displayName = cleanDisplayName(input.displayName, email);
    const created = insertMember(tx, { displayName, email, roleId: role.id, passwordHash: null, isIssuedAccount: false }, now);
    write(rt.platform.db, (ptx) => indexMember(ptx, email, tenant.id, created.id));
    member = created;
  }
  return activeOnly(member);
}

export function activeOnly(member: MemberRow): MemberRow {
  if (!member.isActive) throw new Refusal("MEMBER_INACTIVE", "member is inactive");
  return member;
}
