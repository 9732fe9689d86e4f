import { jwt } from "@elysiajs/jwt";
import type { TokenClaims } from "./actor";

export const ACCESS_TOKEN_TTL_MS = 15 * 60 * 1000;

export type Tokens = {
  /** An access token for 15 min, never past `notAfter` (its session's absolute expiry). */
  sign(claims: TokenClaims, now: number, notAfter: number): Promise<{ accessToken: string; accessTokenExpiresAt: number }>;
  /** The claims of a valid token, null otherwise; at once, without a promise, for a token verified before (docs/rules/performance.md#per-request-work). */
  verify(token: string): TokenClaims | null | Promise<TokenClaims | null>;
};

/**
 * Access tokens: HS256 JWTs (15 min) from @elysiajs/jwt, signed with the server secret. Up to `max`
 * verified tokens are kept (docs/rules/performance.md#per-request-work).
 */
export function createTokens(secret: string, max = 10_000): Tokens {
  const plugin = jwt({ name: "jwt", secret, alg: "HS256" });
  const signer = (
    plugin.decorator as unknown as {
      jwt: { sign(p: object): Promise<string>; verify(t: string): Promise<false | Record<string, unknown>> };
    }
  ).jwt;
  // Verified tokens, so that a client's repeated calls skip the HMAC; bounded, expiry re-checked. The
  // least recently used go first at the bound, not the first verified: a token used again once older
  // than half the map moves to its end (a Map iterates in insertion order), so a busy client's token
  // stays while a storm of new ones passes through; a hit costs one comparison otherwise. Keyed by the
  // token's signature (its last 43 characters), the whole token compared on a hit: the map hashes a
  // key on every lookup, and a token is ~380 characters (docs/rules/performance.md#per-request-work).
  const verified = new Map<string, { token: string; claims: TokenClaims & { exp: number }; at: number }>();
  let added = 0;
  return {
    async sign(claims, now, notAfter) {
      const accessTokenExpiresAt = Math.min(now + ACCESS_TOKEN_TTL_MS, notAfter);
      const payload = { ...claims, sub: claims.sub ?? undefined, exp: Math.floor(accessTokenExpiresAt / 1000) };
      return { accessToken: await signer.sign(payload), accessTokenExpiresAt };
    },
    verify(token) {
      const key = signatureOf(token);
      const hit = verified.get(key);
      if (hit && hit.token === token) {
        if (hit.claims.exp * 1000 <= Date.now()) {
          verified.delete(key);
          return null;
        }
        if (added - hit.at > max >> 1) {
          verified.delete(key);
          hit.at = ++added;
          verified.set(key, hit);
        }
        return hit.claims;
      }
      return signer.verify(token).then((p) => {
        if (!p || typeof p.sid !== "string" || typeof p.email !== "string" || typeof p.exp !== "number") return null;
        const claims = {
          sid: p.sid,
          acc: typeof p.acc === "string" ? p.acc : null,
          email: p.email,
          tid: typeof p.tid === "string" ? p.tid : null,
          tkey: typeof p.tkey === "string" ? p.tkey : null,
          sub: typeof p.sub === "string" ? p.sub : null,
          exp: p.exp,
        };
        // A key already there (a token verified twice at once) is replaced in place: nothing to drop.
        if (verified.size >= max && !verified.has(key)) verified.delete(verified.keys().next().value as string);
        verified.set(key, { token, claims, at: ++added });
        return claims;
      });
    },
  };
}

/** The map key of a token: its last 43 characters, an HS256 signature's (the whole token when shorter). */
const signatureOf = (token: string) => token.slice(-43);
