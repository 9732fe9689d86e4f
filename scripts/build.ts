// Builds dist/learnspace: one executable with every migration, the /docs assets and the web console inside.
import { $ } from "bun";

await $`bun scripts/embed-migrations.ts`;
await $`node_modules/.bin/vite build web --logLevel warn`;
await $`bun scripts/embed-web.ts`;
try {
  await $`bun build --compile --bytecode --minify-syntax --minify-whitespace --sourcemap src/main.ts --outfile dist/learnspace`;
} finally {
  // The checkout keeps the empty stub: a test run serves web/dist from disk instead.
  await $`bun scripts/embed-web.ts --reset`;
}
console.log("built dist/learnspace");
