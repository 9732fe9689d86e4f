import { Elysia } from "elysia";
// Served by the binary itself: an offline appliance has no CDN.
import swaggerCss from "swagger-ui-dist/swagger-ui.css" with { type: "file" };
import swaggerJs from "swagger-ui-dist/swagger-ui-bundle.js" with { type: "file" };
import { APP_CSP, htmlHeaders } from "./security";

const page = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>learnspace API reference</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/docs/assets/swagger-ui.css"></head>
<body><div id="ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/init.js"></script>
</body></html>`;

// No inline script: the page runs under a CSP with script-src 'self'.
const init = `window.ui = SwaggerUIBundle({ url: "/openapi.json", dom_id: "#ui", deepLinking: true, persistAuthorization: true });`;

/** Swagger UI sets inline styles (React style attributes) and SVG data: images; nothing else is relaxed. */
const DOCS_CSP = APP_CSP.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'");

/** GET /openapi.json and GET /docs, an interactive reference with no external assets. */
export function docsPlugin(getDocument: () => object) {
  return new Elysia({ name: "learnspace.docs" })
    .get("/openapi.json", () => getDocument())
    .get("/docs", () => new Response(page, { headers: htmlHeaders(DOCS_CSP) }))
    .get(
      "/docs/assets/init.js",
      () => new Response(init, { headers: { "content-type": "text/javascript", "cache-control": "public, max-age=86400" } }),
    )
    .get(
      "/docs/assets/swagger-ui.css",
      () => new Response(Bun.file(swaggerCss), { headers: { "content-type": "text/css", "cache-control": "public, max-age=86400" } }),
    )
    .get(
      "/docs/assets/swagger-ui-bundle.js",
      () => new Response(Bun.file(swaggerJs), { headers: { "content-type": "text/javascript", "cache-control": "public, max-age=86400" } }),
    );
}
