import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { Elysia } from "elysia";
import { nodeCrypto } from "../../platform/crypto";
import { notFound } from "../../platform/http/errors";
import { htmlHeaders } from "../../platform/http/security";
import { consoleAssets } from "./assets.gen";

/** First segments the console never answers: the API, the docs, the hosted pages and the probes keep their own 404. */
const RESERVED = /^\/(api|docs|openapi\.json|t|healthz|readyz|metrics)(\/|$)/;
/** Scripts only from the binary; styles from the binary plus the tags stamped with this response's nonce. */
const csp = (nonce: string) =>
  `default-src 'self'; script-src 'self'; style-src 'self' 'nonce-${nonce}'; img-src 'self' data: blob: https:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'`;
const SECURITY = { "x-content-type-options": "nosniff", "referrer-policy": "same-origin", "x-frame-options": "DENY" };

const NOT_BUILT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>learnspace</title></head>
<body><main><h1>The console is not built</h1><p>Run <code>npm run build</code> (or <code>npm run web:build</code>) and restart. The API is at <a href="/docs">/docs</a>.</p></main></body></html>`;

/** URL path → file: the embedded assets of a built binary, else web/dist of a checkout, else nothing. */
function assetMap(dist: string | undefined): Map<string, string> {
  if (!dist && Object.keys(consoleAssets).length > 0) return new Map(Object.entries(consoleAssets));
  dist ??= join(import.meta.dir, "..", "..", "..", "web", "dist");
  if (!existsSync(join(dist, "index.html"))) return new Map();
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
  return new Map(walk(dist).map((f) => [`/${relative(dist, f).split("\\").join("/")}`, f]));
}

/** The encodings a client accepts (q=0 refuses one), lower-cased. */
function accepted(header: string | null): Set<string> {
  const out = new Set<string>();
  for (const part of (header ?? "").toLowerCase().split(",")) {
    const [name = "", ...params] = part.trim().split(";");
    if (name && !params.some((p) => /^\s*q=0(\.0*)?\s*$/.test(p))) out.add(name.trim());
  }
  return out;
}

/**
 * The build's precompressed copy of an asset the client accepts (brotli first, then gzip), and which
 * encodings exist for it at all (then the answer varies by Accept-Encoding). docs/rules/console.md#compression
 */
function precompressed(assets: Map<string, string>, path: string, acceptEncoding: string | null) {
  const encodings = (["br", "gzip"] as const).filter((e) => assets.has(`${path}.${e === "br" ? "br" : "gz"}`));
  const ok = accepted(acceptEncoding);
  const encoding = encodings.find((e) => ok.has(e)) ?? "";
  const file = encoding ? assets.get(`${path}.${encoding === "br" ? "br" : "gz"}`) : undefined;
  return { encodings, encoding, file };
}

/**
 * The web console (web/): hashed assets cached for a year, index.html for every one-segment client route,
 * never cached, under a CSP that allows only the console's own scripts and styles.
 */
export function consoleModule(dist?: string) {
  const assets = assetMap(dist);
  const indexFile = assets.get("/index.html");
  const index = indexFile ? readFileSync(indexFile, "utf8") : null;
  const page = () => {
    if (!index) return notBuilt();
    const nonce = nodeCrypto().randomBytes(16).toString("base64");
    return new Response(index.replace("__CSP_NONCE__", nonce), {
      headers: {
        "content-type": "text/html; charset=utf-8",
        "cache-control": "no-cache",
        "content-security-policy": csp(nonce),
        ...SECURITY,
      },
    });
  };
  const notBuilt = () => new Response(NOT_BUILT, { status: 200, headers: htmlHeaders() });
  const serve = ({ path, request }: { path: string; request: Request }) => {
    if (RESERVED.test(path)) throw notFound();
    const file = path === "/index.html" ? undefined : assets.get(path);
    if (file) {
      const immutable = path.startsWith("/assets/");
      const headers: Record<string, string> = {
        "cache-control": immutable ? "public, max-age=31536000, immutable" : "public, max-age=3600",
        ...SECURITY,
      };
      const variant = precompressed(assets, path, request.headers.get("accept-encoding"));
      if (variant.encodings.length > 0) headers.vary = "Accept-Encoding";
      if (!variant.file) return new Response(Bun.file(file), { headers });
      headers["content-type"] = Bun.file(file).type;
      headers["content-encoding"] = variant.encoding;
      return new Response(Bun.file(variant.file), { headers });
    }
    // A missing file is a 404; anything else is a client route of the single-page app.
    if (/\.[a-z0-9]+$/i.test(path)) throw notFound();
    return page();
  };
  // Screens are one path segment (their state is in the query string), so deeper unknown paths stay unmatched 404s.
  return new Elysia({ name: "module.console" }).get("/", page).get("/:screen", serve).get("/assets/:file", serve);
}
