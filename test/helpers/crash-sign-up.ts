// Runs a server on argv[2] (data dir) and signs up argv[4]; the process kills itself with SIGKILL at
// argv[3]: "before-tenant-file" (the account is written, the tenant file not yet) or
// "after-tenant-file" (the tenant file is written, the platform registry not yet).
import { loadConfig } from "../../src/config";
import { startServer } from "../../src/server";

const [dataDir, point, email] = process.argv.slice(2) as [string, string, string];
const server = startServer(
  loadConfig(
    [],
    { LEARNSPACE_QUIET: "1", LEARNSPACE_IP_RATE_LIMIT: "0", LEARNSPACE_TENANT_SIGNUP: "open" },
    { port: 0, dataDir, devCodes: true },
  ),
);
const tenants = server.rt.tenants;
const use = tenants.use.bind(tenants);
tenants.use = ((id: string, fn: (h: unknown) => unknown, opts?: { create?: boolean }) => {
  if (!opts?.create) return use(id, fn as never, opts);
  if (point === "before-tenant-file") process.kill(process.pid, "SIGKILL");
  const result = use(id, fn as never, opts);
  process.kill(process.pid, "SIGKILL");
  return result;
}) as typeof tenants.use;
await fetch(`${server.url}/api/v1/auth/sign-up`, {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ email, password: "Passw0rd!", displayName: "Half Made", tenantKey: "halfmade", tenantName: "Half" }),
});
console.error("not killed");
process.exit(3);
