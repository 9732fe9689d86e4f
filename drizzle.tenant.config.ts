import { defineConfig } from "drizzle-kit";

// One file per tenant: every table of every module's tables.ts.
export default defineConfig({
  dialect: "sqlite",
  schema: "./src/modules/*/tables.ts",
  out: "./drizzle/tenant",
});
