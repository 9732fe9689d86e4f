// Builds dist/learnspace: one executable with every migration and the /docs assets inside.
import { $ } from "bun";

await $`bun scripts/embed-migrations.ts`;
await $`bun build --compile --bytecode --minify-syntax --minify-whitespace --sourcemap src/main.ts --outfile dist/learnspace`;
console.log("built dist/learnspace");
