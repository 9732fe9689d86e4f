import { Elysia, t } from "elysia";
import type { Runtime } from "../../platform/runtime";

/** GET /healthz (process up) and GET /readyz (platform file open and migrated); not under /api/v1. */
export function healthModule(rt: Runtime) {
  return new Elysia({ name: "module.health" })
    .get("/healthz", () => ({ status: "ok" }), {
      detail: {
        operationId: "healthz",
        tags: ["health"],
        summary: "Check that the process is up",
        description: 'Liveness probe, outside `/api/v1`; public. Answers 200 `{status: "ok"}` as long as the process serves HTTP.',
        "x-auth": "public",
        security: [],
      },
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
        detail: {
          operationId: "readyz",
          tags: ["health"],
          summary: "Check that the server is ready",
          description:
            'Readiness probe, outside `/api/v1`; public. 200 `{status: "ready"}` once the platform file is open and migrated; 503 `{status: "not-ready"}` before that, or when the platform file cannot be read.',
          "x-auth": "public",
          security: [],
        },
        response: { 200: t.Object({ status: t.String() }), 503: t.Object({ status: t.String() }) },
      },
    );
}
