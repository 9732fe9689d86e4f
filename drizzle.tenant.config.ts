import { defineConfig } from "drizzle-kit";

// One file per tenant: the shared tables of src/schema and every table of every module's tables.ts.
export default defineConfig({
  dialect: "sqlite",
  schema: ["./src/schema/*.ts", "./src/modules/*/tables.ts"],
  out: "./drizzle/tenant",
});
