import { Elysia } from "elysia";
import type { Runtime } from "../runtime";
import { clientAddress } from "./client-address";
import { tooMany } from "./errors";

const WINDOW_MS = 60_000;

/** A fixed one-minute window per key; `limit` 0 turns it off. */
export type RateLimiter = {
  /** Counts one hit; returns the seconds to wait when the key is over its limit, else 0. */
  hit(key: string, now?: number): number;
};

export function createRateLimiter(limit: number, windowMs = WINDOW_MS, maxKeys = 100_000): RateLimiter {
  const windows = new Map<string, { start: number; count: number }>();
  return {
    hit(key, now = Date.now()) {
      if (limit <= 0) return 0;
      let w = windows.get(key);
      if (!w || now - w.start >= windowMs) {
        // Drop expired windows before the map grows past its bound (memory stays flat under a flood).
        if (windows.size >= maxKeys) {
          for (const [k, v] of windows) if (now - v.start >= windowMs) windows.delete(k);
          if (windows.size >= maxKeys) windows.clear();
        }
        w = { start: now, count: 0 };
        windows.set(key, w);
      }
      w.count++;
      return w.count > limit ? (w.start + windowMs - now) / 1000 : 0;
    },
  };
}

const limiters = new WeakMap<Runtime, RateLimiter>();

/** The per-IP limiter of a server (docs/rules/sign-in.md#rate-limits), shared by every module. */
export function ipLimiter(rt: Runtime): RateLimiter {
  let l = limiters.get(rt);
  if (!l) {
    l = createRateLimiter(rt.config.ipRateLimit);
    limiters.set(rt, l);
  }
  return l;
}

type ServerLike = { requestIP(r: Request): { address: string } | null } | null;

/**
 * The `ipRateLimit` macro: `ipRateLimit: "auth"` counts the request against the client address's
 * bucket of that name, before validation, and answers 429 RATE_LIMITED with Retry-After when over.
 * The address is the socket peer, or the client named in X-Forwarded-For when the peer is one of
 * LEARNSPACE_TRUSTED_PROXIES (clientAddress); the header of any other peer is never believed.
 */
export function rateLimitPlugin(rt: Runtime) {
  const limiter = ipLimiter(rt);
  return new Elysia({ name: "learnspace.rate-limit" }).macro({
    ipRateLimit: (bucket: string) => ({
      transform({ request, server }: { request: Request; server: ServerLike }) {
        const ip = clientAddress(rt.config, request, server);
        const wait = limiter.hit(`${bucket}:${ip}`);
        if (wait > 0) throw tooMany("RATE_LIMITED", "Too many requests from this address; try again later.", wait);
      },
    }),
  });
}

const memberLimiters = new WeakMap<Runtime, RateLimiter>();

/**
 * The per-member limit on what members write for each other (comments, messages, participant
 * posts; `LEARNSPACE_COMMUNITY_RATE_LIMIT` a minute): counts one write of the member and answers
 * 429 RATE_LIMITED with Retry-After when over. Called after the access and state checks (a refused
 * write costs nothing).
 */
export function limitMemberWrites(rt: Runtime, who: { tenantId: string; memberId: string }, now = Date.now()): void {
  let l = memberLimiters.get(rt);
  if (!l) {
    l = createRateLimiter(rt.config.communityRateLimit);
    memberLimiters.set(rt, l);
  }
  const wait = l.hit(`${who.tenantId}:${who.memberId}`, now);
  if (wait > 0) throw tooMany("RATE_LIMITED", "Too many messages and comments in a minute; try again later.", wait);
}
