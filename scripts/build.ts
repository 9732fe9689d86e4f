// Builds dist/learnspace: one executable with every migration, the /docs assets and the web console inside.
import { $ } from "bun";

await $`bun scripts/embed-migrations.ts`;
await $`node_modules/.bin/vite build web --logLevel warn`;
await $`bun scripts/compress-web.ts`;
await $`bun scripts/embed-web.ts`;
try {
  // The similarity worker is a second entrypoint (new Worker needs it in the binary's file system).
  // ESM: the PDF reader (pdfjs, through unpdf) uses import.meta and top-level await, which CJS bytecode cannot hold.
  await $`bun build --compile --bytecode --format esm --minify-syntax --minify-whitespace --sourcemap src/main.ts src/modules/similarity/worker.ts --outfile dist/learnspace`;
} finally {
  // The checkout keeps the empty stub: a test run serves web/dist from disk instead.
  await $`bun scripts/embed-web.ts --reset`;
}
console.log("built dist/learnspace");
