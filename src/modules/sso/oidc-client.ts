import { createRemoteJWKSet, customFetch, type JWTPayload, jwtVerify } from "jose";
import * as oidc from "openid-client";
import { nodeCrypto } from "../../platform/crypto";
import type { guardedFetch } from "../../platform/http/outbound";

/**
 * The relying-party side of OpenID Connect (docs/rules/sign-in.md#openid-connect), on openid-client: discovery with the
 * issuer check, PKCE S256, state and nonce, the code exchange and its ID token claim checks. The
 * token's signature is verified here with jose against the provider's JWKS, with the algorithms
 * allowed below only (openid-client trusts a token-endpoint ID token without its signature).
 */

export type OidcClient = { key: string; issuer: string; clientId: string; clientSecret: string; scopes: string };
const CACHE_MS = 60 * 60 * 1000;
const SKEW_SECONDS = 120;
const TIMEOUT_SECONDS = 10;
export const ID_TOKEN_ALGORITHMS = ["RS256", "PS256", "ES256", "EdDSA"];

const LOOPBACK = new Set(["127.0.0.1", "[::1]", "localhost"]);
/** Issuer URL rule: https, or http on a loopback host (development and tests); else why not. */
export function issuerProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "must be an absolute https URL";
  }
  if (url.protocol === "https:" || (url.protocol === "http:" && LOOPBACK.has(url.hostname))) {
    return url.search || url.hash ? "must not have a query or fragment" : null;
  }
  return "must be an https URL (http only on a loopback host)";
}

type Discovered = { at: number; config: oidc.Configuration; jwks: ReturnType<typeof createRemoteJWKSet> };
const cache = new Map<string, Discovered>();

/**
 * The provider's configuration, discovered at most once an hour per client (with its JWKS). Every
 * request to the provider (discovery, JWKS, token endpoint) goes through `fetcher`, the guard of
 * docs/rules/trust.md#server-side-fetches.
 */
export async function discover(client: OidcClient, fetcher: ReturnType<typeof guardedFetch>, now = Date.now()): Promise<Discovered> {
  const id = `${client.issuer}\0${client.clientId}\0${nodeCrypto().createHash("sha256").update(client.clientSecret).digest("base64url")}`;
  const hit = cache.get(id);
  if (hit && now - hit.at < CACHE_MS) return hit;
  const insecure = new URL(client.issuer).protocol === "http:";
  const viaGuard: oidc.CustomFetch = (url, options) => fetcher(url, options as RequestInit);
  const config = await oidc.discovery(
    new URL(client.issuer),
    client.clientId,
    { client_secret: client.clientSecret, [oidc.clockTolerance]: SKEW_SECONDS },
    oidc.ClientSecretPost(client.clientSecret),
    { timeout: TIMEOUT_SECONDS, [oidc.customFetch]: viaGuard, ...(insecure ? { execute: [oidc.allowInsecureRequests] } : {}) },
  );
  if (insecure) oidc.allowInsecureRequests(config);
  config[oidc.customFetch] = viaGuard;
  const jwksUri = config.serverMetadata().jwks_uri;
  if (!jwksUri) throw new Error("the provider's metadata has no jwks_uri");
  // An unknown kid refetches the set at once (the token came from the provider's own token endpoint).
  const jwks = createRemoteJWKSet(new URL(jwksUri), {
    cacheMaxAge: CACHE_MS,
    cooldownDuration: 0,
    timeoutDuration: TIMEOUT_SECONDS * 1000,
    [customFetch]: (url, options) => fetcher(url, options as RequestInit),
  });
  for (const [k, v] of cache) if (now - v.at >= CACHE_MS) cache.delete(k);
  const entry = { at: now, config, jwks };
  cache.set(id, entry);
  return entry;
}

export type PendingSignIn = { state: string; nonce: string; codeVerifier: string };

/** The authorization URL (code flow, PKCE S256) and the secrets the callback checks against. */
export async function authorizationUrl(d: Discovered, client: OidcClient, redirectUri: string) {
  const pending: PendingSignIn = { state: oidc.randomState(), nonce: oidc.randomNonce(), codeVerifier: oidc.randomPKCECodeVerifier() };
  const url = oidc.buildAuthorizationUrl(d.config, {
    redirect_uri: redirectUri,
    scope: client.scopes,
    state: pending.state,
    nonce: pending.nonce,
    code_challenge: await oidc.calculatePKCECodeChallenge(pending.codeVerifier),
    code_challenge_method: "S256",
  });
  return { url: url.toString(), pending };
}

export type IdClaims = JWTPayload & { sub: string; email?: unknown; email_verified?: unknown; name?: unknown };

/**
 * Exchanges the code and returns the ID token's claims once every check passed: state, PKCE, the
 * `iss` response parameter, iss, aud/azp, exp/iat (2 min skew), nonce (openid-client), and the
 * signature with an allowed algorithm, iss, aud, exp and iat again (jose). Throws on any failure.
 */
export async function redeemCode(d: Discovered, client: OidcClient, callbackUrl: URL, pending: PendingSignIn): Promise<IdClaims> {
  const tokens = await oidc.authorizationCodeGrant(d.config, callbackUrl, {
    pkceCodeVerifier: pending.codeVerifier,
    expectedState: pending.state,
    expectedNonce: pending.nonce,
    idTokenExpected: true,
  });
  const idToken = tokens.id_token;
  if (!idToken) throw new Error("no ID token");
  const { payload } = await jwtVerify(idToken, d.jwks, {
    algorithms: ID_TOKEN_ALGORITHMS,
    issuer: d.config.serverMetadata().issuer,
    audience: client.clientId,
    clockTolerance: SKEW_SECONDS,
    maxTokenAge: CACHE_MS / 1000,
    requiredClaims: ["iat", "exp", "sub"],
  });
  if (payload.nonce !== pending.nonce) throw new Error("nonce mismatch");
  return payload as IdClaims;
}
