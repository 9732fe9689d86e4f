import type { Config } from "../config";
import { resolveMember } from "../modules/members/actor";
import { memberEmails } from "../modules/members/directory";
import { listTenantRows, replaceTenantIndex } from "../platform/db/registry";
import { write } from "../platform/db/types";
import { createRuntime } from "../platform/runtime";

/** Opens (and so migrates) every tenant file and rebuilds the e-mail directory from them. */
export function reindex(config: Config) {
  const rt = createRuntime({ ...config, quiet: true }, resolveMember);
  let entries = 0;
  try {
    const rows = listTenantRows(rt.platform.db);
    for (const tenant of rows) {
      const members = rt.tenants.use(tenant.id, (h) => memberEmails(h.db));
      write(rt.platform.db, (tx) => replaceTenantIndex(tx, tenant.id, members));
      entries += members.length;
    }
    return { tenants: rows.length, entries };
  } finally {
    rt.close();
  }
}
