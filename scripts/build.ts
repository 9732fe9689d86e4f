// Builds dist/learnspace: one executable with every migration and the /docs assets inside.
import { $ } from "bun";

await $`bun scripts/embed-migrations.ts`;
// ESM: the PDF reader (pdfjs, through unpdf) uses import.meta and top-level await, which CJS bytecode cannot hold.
await $`bun build --compile --bytecode --format esm --minify-syntax --minify-whitespace --sourcemap src/main.ts --outfile dist/learnspace`;
console.log("built dist/learnspace");
