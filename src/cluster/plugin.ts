import { Elysia } from "elysia";
import { listTenantRows } from "../platform/db/registry";
import { markStreamedBody } from "../platform/http/body";
import type { Runtime } from "../platform/runtime";
import { localMemberships } from "./directory";
import { answerHere, type CodeCheck, checkCodeHere } from "./forwarded";
import { exportFile, exportPlatform, freeze, importFile, importPlatform, type PlatformRows, release, thaw } from "./handoff";
import { type ClusterNode, NODE_HEADER, pathOf } from "./node";
import { checkPeer } from "./peer";
import { restoreHere } from "./restore";

const counted = new WeakMap<Request, string>();
const hidden = { detail: { hide: true } };

/**
 * Cluster mode's HTTP part: every answer names the node; a school's request passes the gate
 * (421 elsewhere, 503 while moving or fenced); `/_cluster/…` are the calls between nodes and from
 * the commands, signed with the shared secret (docs/rules/cluster.md#node-to-node-calls).
 */
export function clusterPlugin(rt: Runtime, node: ClusterNode) {
  const peer = ({ request }: { request: Request }) => checkPeer(rt.secret, request);
  return (
    new Elysia({ name: "learnspace.cluster" })
      .onRequest(({ request, set }) => {
        set.headers[NODE_HEADER] = node.name;
        if (pathOf(request).startsWith("/_cluster/")) {
          request.headers.delete("content-type");
          markStreamedBody(request);
          return;
        }
        const key = node.gate(request);
        if (key) counted.set(request, key);
      })
      // Not ready while out of touch with etcd: HAProxy's health check sends nothing here then.
      .onBeforeHandle({ as: "global" }, ({ request, set }) => {
        if (!node.fenced() || pathOf(request) !== "/readyz") return;
        set.status = 503;
        return { status: "not-ready" };
      })
      .onAfterResponse({ as: "global" }, ({ request }) => {
        const key = counted.get(request);
        if (key === undefined) return;
        counted.delete(request);
        node.done(key);
      })
      .group("/_cluster", (app) =>
        app
          .onBeforeHandle(peer)
          .get(
            "/status",
            () => ({
              node: node.name,
              url: node.url,
              fenced: node.fenced(),
              tenants: listTenantRows(rt.platform.db).map((r) => ({
                key: r.key,
                id: r.id,
                placedHere: node.placements.get(r.key)?.node === node.name,
              })),
            }),
            hidden,
          )
          .post("/tenants/:key/freeze", ({ params }) => freeze(rt, node, params.key), hidden)
          .post("/tenants/:key/thaw", ({ params }) => thaw(rt, node, params.key), hidden)
          .get("/tenants/:key/file", ({ params }) => exportFile(rt, node, params.key), hidden)
          .get("/tenants/:key/platform", ({ params }) => exportPlatform(rt, params.key), hidden)
          .put(
            "/tenants/:key/file/:tenantId",
            async ({ params, request }) => importFile(rt, node, params.key, params.tenantId, await request.arrayBuffer()),
            hidden,
          )
          .post(
            "/tenants/:key/platform",
            async ({ params, request }) => importPlatform(rt, node, params.key, (await request.json()) as PlatformRows),
            hidden,
          )
          .post("/tenants/:key/release/:tenantId", ({ params }) => release(rt, node, params.key, params.tenantId), hidden)
          .post(
            "/memberships",
            async ({ request }) => localMemberships(rt, node, ((await request.json()) as { email: string }).email),
            hidden,
          )
          .post("/codes/check", async ({ request }) => checkCodeHere(rt, (await request.json()) as CodeCheck), hidden)
          .post("/auth/:op", async ({ params, request }) => answerHere(rt, node, params.op, await request.json()), hidden)
          .post(
            "/tenants/:key/restore/:tenantId",
            async ({ params, request }) => restoreHere(rt, node, params.key, params.tenantId, (await request.json()) as { from: string }),
            hidden,
          ),
      )
  );
}
