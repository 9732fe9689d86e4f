// Seeds N tenant files (each with its owner) into a data dir and writes one access token per tenant
// (bench-tokens.json) and the schools (bench-tenants.json).
//   bun bench/seed-tenants.ts DIR N            seeds
//   bun bench/seed-tenants.ts DIR N --tokens   only new tokens for the first N schools already seeded
//                                               (access tokens live 15 minutes; a 1,000-file run outlives them)
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "../src/config";
import { resolveMember } from "../src/modules/members/actor";
import { provisionTenant } from "../src/modules/tenant/provision";
import { openMemberSession } from "../src/platform/auth/sessions";
import { createRuntime } from "../src/platform/runtime";

const [dataDir, count] = [process.argv[2] as string, Number(process.argv[3] ?? 1000)];
const rt = createRuntime(loadConfig([], {}, { dataDir, quiet: true, tenantHandles: 16 }), resolveMember);
type Seeded = { key: string; tenantId: string; memberId: string };
let tenants: Seeded[] = [];
if (process.argv.includes("--tokens")) {
  tenants = (JSON.parse(readFileSync(join(dataDir, "bench-tenants.json"), "utf8")) as Seeded[]).slice(0, count);
} else {
  for (let i = 0; i < count; i++) {
    const key = `bench-${i}`;
    const t = provisionTenant(rt, {
      key,
      name: `Bench ${i}`,
      owner: { email: `owner${i}@bench.test`, displayName: "Owner", passwordHash: null },
    });
    tenants.push({ key, tenantId: t.tenantId, memberId: t.memberId });
  }
  writeFileSync(join(dataDir, "bench-tenants.json"), JSON.stringify(tenants));
}
// The tokens once every file exists: access tokens live 15 minutes, and on a busy machine seeding 1,000 files
// took longer than that (the first schools' tokens had expired before their visit).
const tokens: string[] = [];
for (const [i, t] of tenants.entries()) {
  const s = await openMemberSession(rt, { email: `owner${i}@bench.test`, tenantId: t.tenantId, tenantKey: t.key, memberId: t.memberId });
  tokens.push(s.accessToken);
}
writeFileSync(join(dataDir, "bench-tokens.json"), JSON.stringify(tokens));
rt.close();
