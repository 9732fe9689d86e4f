import { Elysia } from "elysia";
import type { Runtime } from "../runtime";
import { requestIdOf } from "./plugin";

/**
 * The policy of the app's own HTML (the web console served at `/`): its scripts, styles, images and
 * API calls come from this origin only; no inline script, no framing, no plugins.
 */
export const APP_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "media-src 'self' blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

/** Every response that sets no policy of its own (JSON, problems): nothing may load, nobody may frame it. */
const API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'";

/** The headers of an HTML page of the app (use with APP_CSP or a stricter policy of the page's own). */
export function htmlHeaders(csp = APP_CSP): Record<string, string> {
  return {
    "content-type": "text/html; charset=utf-8",
    "content-security-policy": csp,
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "cache-control": "no-store",
  };
}

const CORS_METHODS = "GET, POST, PUT, PATCH, DELETE";
const CORS_HEADERS = "authorization, content-type, x-request-id";
const CORS_EXPOSED = "x-request-id, retry-after, content-disposition, location";

/** The fixed security headers of every response (securityPlugin); JSON answers start from them (answer.ts). */
export function securityHeaders(rt: Runtime): Record<string, string> {
  return {
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
    "content-security-policy": API_CSP,
    "cache-control": "no-store",
    ...(rt.config.publicUrl.startsWith("https://") ? { "strict-transport-security": "max-age=31536000" } : {}),
  };
}

/**
 * Security headers on every response (a Response that sets its own wins): nosniff, no referrer, no
 * framing, a deny-all CSP, `Cache-Control: no-store` (tokens, auth results and members' data are
 * never kept by a cache), HSTS when LEARNSPACE_PUBLIC_URL is https. CORS is off unless the request's
 * Origin is one of LEARNSPACE_CORS_ORIGINS; preflights of other origins get no CORS headers.
 * The fixed set is built once and copied into each request's headers by Elysia; without CORS origins
 * no hook runs at all (docs/rules/performance.md#per-request-work).
 */
export function securityPlugin(rt: Runtime) {
  const plugin = new Elysia({ name: "learnspace.security" }).headers(securityHeaders(rt));
  const origins = new Set(rt.config.corsOrigins);
  if (origins.size === 0) return plugin;
  return plugin.onRequest(({ request, set }) => {
    const origin = request.headers.get("origin");
    if (!origin || !origins.has(origin)) return;
    const h = set.headers;
    h["access-control-allow-origin"] = origin;
    h["access-control-allow-credentials"] = "true";
    h["access-control-expose-headers"] = CORS_EXPOSED;
    h.vary = "Origin";
    if (request.method === "OPTIONS" && request.headers.has("access-control-request-method")) {
      // An early answer: the adapter is not told its request (http/plugin.ts, requestStart).
      const id = requestIdOf(request);
      if (id !== undefined) h["x-request-id"] = id;
      return new Response(null, {
        status: 204,
        headers: {
          ...(h as Record<string, string>),
          "access-control-allow-methods": CORS_METHODS,
          "access-control-allow-headers": CORS_HEADERS,
          "access-control-max-age": "600",
        },
      });
    }
  });
}
