import type { Config } from "../config";
import { resolveMember } from "../modules/members/actor";
import { memberEmails } from "../modules/members/directory";
import { listTenantRows, replaceTenantIndex } from "../platform/db/registry";
import { write } from "../platform/db/types";
import { createRuntime, type Runtime } from "../platform/runtime";

/** Opens (and so migrates) every tenant file and rebuilds the e-mail directory from them (`learnspace reindex`). */
export function reindex(config: Config) {
  const rt = createRuntime({ ...config, quiet: true }, resolveMember);
  try {
    return rebuildDirectory(rt);
  } finally {
    rt.close();
  }
}

/**
 * The directory rebuilt from every tenant file; also run by `serve` after a crash, since a member
 * write commits to the tenant file before the directory. A file that cannot be opened or migrated
 * is named in `failed` and skipped; the others are still done.
 */
export function rebuildDirectory(rt: Runtime) {
  let entries = 0;
  const failed: { tenantKey: string; file: string; reason: string }[] = [];
  const rows = listTenantRows(rt.platform.db);
  for (const tenant of rows) {
    try {
      const members = rt.tenants.use(tenant.id, (h) => memberEmails(h.db));
      write(rt.platform.db, (tx) => replaceTenantIndex(tx, tenant.id, members));
      entries += members.length;
    } catch (e) {
      rt.tenants.drop(tenant.id);
      const reason = (e instanceof Error ? e.message : String(e)).split("\n")[0] ?? "";
      failed.push({ tenantKey: tenant.key, file: rt.tenants.fileOf(tenant.id), reason });
    }
  }
  return { tenants: rows.length - failed.length, entries, failed };
}
