import { platformMigrations, tenantMigrations } from "../platform/db/migrations.gen";
import { VERSION } from "./snapshot";

const schema = (ms: { tag: string; when: number }[]) => `${ms.at(-1)?.tag ?? "none"} (${ms.at(-1)?.when ?? 0}, ${ms.length} migrations)`;

/** `learnspace version`: the binary's version and the newest schema of each file kind it knows. */
export function versionCommand(): number {
  console.log(`learnspace ${VERSION}`);
  console.log(`platform schema ${schema(platformMigrations)}`);
  console.log(`tenant schema ${schema(tenantMigrations)}`);
  return 0;
}
