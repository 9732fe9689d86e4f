// Builds dist/learnspace: one executable with every migration and the /docs assets inside.
import { $ } from "bun";

await $`bun scripts/embed-migrations.ts`;
// The similarity worker is a second entrypoint (new Worker needs it in the binary's file system).
// ESM: the PDF reader (pdfjs, through unpdf) uses import.meta and top-level await, which CJS bytecode cannot hold.
await $`bun build --compile --bytecode --format esm --minify-syntax --minify-whitespace --sourcemap src/main.ts src/modules/similarity/worker.ts --outfile dist/learnspace`;
console.log("built dist/learnspace");
