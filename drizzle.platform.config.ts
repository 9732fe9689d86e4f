import { defineConfig } from "drizzle-kit";

// The platform file: accounts, tenant registry, directory, codes, sessions, platform terms.
export default defineConfig({
  dialect: "sqlite",
  schema: ["./src/platform/**/platform-tables.ts", "./src/modules/*/platform-tables.ts"],
  out: "./drizzle/platform",
});
