import { unseal } from "../../platform/crypto";
import type { Db } from "../../platform/db/types";
import type { Runtime } from "../../platform/runtime";
import { getLoginPageSettings } from "../login-page/service";
import { issuerProblem, type OidcClient } from "./oidc-client";
import type { RefusalCode } from "./refusal";
import { OIDC_SECRET_PURPOSE, readSso } from "./service";

export const SOCIAL_KEYS = ["social_a", "social_b"] as const;
export type SocialKey = (typeof SOCIAL_KEYS)[number];
export const isSocialKey = (key: string): key is SocialKey => (SOCIAL_KEYS as readonly string[]).includes(key);

export type ResolvedProvider = { client: OidcClient; kind: "social" | "partner"; provisionMembers: boolean };

const reportedBadIssuers = new Set<string>();

/** A social provider the operator configured with a valid issuer; a bad issuer is logged once and left out (docs/rules/sign-in.md#openid-connect). */
export function socialClient(rt: Runtime, key: SocialKey): OidcClient | null {
  const env = rt.config.social[key];
  if (!env) return null;
  const problem = issuerProblem(env.issuer);
  if (problem) {
    if (!reportedBadIssuers.has(`${key}:${env.issuer}`)) {
      reportedBadIssuers.add(`${key}:${env.issuer}`);
      rt.log({
        level: "error",
        event: "oidc-social-misconfigured",
        provider: key,
        reason: `LEARNSPACE_${key.toUpperCase()}_ISSUER ${problem}`,
      });
    }
    return null;
  }
  return { key, issuer: env.issuer, clientId: env.clientId, clientSecret: env.clientSecret, scopes: "openid email profile" };
}

/** Whether a tenant offers a social provider: the platform has it, the login page turns it on, and ALL methods are allowed. */
export function socialOffered(rt: Runtime, db: Db, key: SocialKey): boolean {
  return !!socialClient(rt, key) && getLoginPageSettings(db).methods[key] && readSso(db).allowedLoginMethods === "ALL";
}

/**
 * The OpenID Connect provider `key` as it may be used now: in a tenant (db), or platform-wide (db
 * null, social only). Otherwise the refusal a callback gives (a start answers 404 for any).
 */
export function resolveOidcProvider(rt: Runtime, db: Db | null, key: string): ResolvedProvider | { refusal: RefusalCode } {
  if (isSocialKey(key)) {
    const client = socialClient(rt, key);
    if (!client) return { refusal: "SSO_DISABLED" };
    if (db) {
      if (readSso(db).allowedLoginMethods !== "ALL") return { refusal: "SSO_ONLY" };
      if (!getLoginPageSettings(db).methods[key]) return { refusal: "SSO_DISABLED" };
    }
    return { client, kind: "social", provisionMembers: false };
  }
  if (!db) return { refusal: "SSO_DISABLED" };
  const sso = readSso(db);
  const partner = sso.partnerProviders.find((p) => p.key === key);
  if (!partner) return { refusal: "SSO_DISABLED" };
  if (sso.allowedLoginMethods !== "ALL") return { refusal: "SSO_ONLY" };
  if (!partner.enabled || !partner.oidc || !getLoginPageSettings(db).methods.partner) return { refusal: "SSO_DISABLED" };
  const { issuer, clientId, scopes, clientSecretSealed } = partner.oidc;
  const clientSecret = unseal(rt.secret, OIDC_SECRET_PURPOSE, clientSecretSealed);
  return { client: { key, issuer, clientId, clientSecret, scopes }, kind: "partner", provisionMembers: sso.provisionMembers };
}
