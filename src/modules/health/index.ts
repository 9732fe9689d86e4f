import { Elysia, t } from "elysia";
import type { Runtime } from "../../platform/runtime";

/** GET /healthz (process up) and GET /readyz (platform file open and migrated); not under /api/v1. */
export function healthModule(rt: Runtime) {
  return new Elysia({ name: "module.health" })
    .get("/healthz", () => ({ status: "ok" }), {
      detail: { operationId: "healthz", tags: ["health"], "x-auth": "public" },
      response: t.Object({ status: t.String() }),
    })
    .get(
      "/readyz",
      ({ set }) => {
        try {
          rt.platform.sqlite.query("SELECT count(*) FROM __drizzle_migrations").get();
          return { status: "ready" };
        } catch {
          set.status = 503;
          return { status: "not-ready" };
        }
      },
      {
        detail: { operationId: "readyz", tags: ["health"], "x-auth": "public" },
        response: { 200: t.Object({ status: t.String() }), 503: t.Object({ status: t.String() }) },
      },
    );
}
