import { Elysia } from "elysia";
import { authPlugin } from "../../platform/auth/context";
import { tenantByKey } from "../../platform/db/registry";
import { notFound } from "../../platform/http/errors";
import { route } from "../../platform/http/route";
import type { Runtime } from "../../platform/runtime";
import { consentAgreements, listDisplayAgreements, listMyAgreements, listPendingAgreements, withdrawAgreement } from "./consent";
import { ConsentBody, DisplayAgreements, DisplayQuery, MyAgreements, PendingAgreements, WithdrawBody } from "./model";

/** The caller's side of terms: their consents (catalog area `auth`). */
export function agreementsRoutes(rt: Runtime) {
  return new Elysia({ name: "module.terms.agreements" })
    .use(authPlugin(rt))
    .get("/me/agreements", ({ actor }) => listMyAgreements(rt, actor), {
      ...route("listMyAgreements", "auth", "session"),
      response: { 200: MyAgreements },
    })
    .get("/me/agreements/pending", ({ actor }) => listPendingAgreements(rt, actor), {
      ...route("listPendingAgreements", "auth", "session"),
      response: { 200: PendingAgreements },
    })
    .post(
      "/me/agreements",
      ({ actor, body, set }) => {
        set.status = 201;
        return consentAgreements(rt, actor, body);
      },
      {
        ...route("consentAgreements", "auth", "session"),
        body: ConsentBody,
        response: { 201: PendingAgreements },
      },
    )
    .post("/me/agreements/withdraw", ({ actor, body }) => withdrawAgreement(rt, actor, body), {
      ...route("withdrawAgreement", "auth", "session"),
      body: WithdrawBody,
      response: { 200: MyAgreements },
    })
    .get(
      "/public/agreements",
      ({ query }) => {
        if (query.tenantKey === undefined) return listDisplayAgreements(rt, null);
        const tenant = tenantByKey(rt.platform.db, query.tenantKey);
        if (!tenant) throw notFound();
        return rt.tenants.use(tenant.id, (h) => listDisplayAgreements(rt, h.db));
      },
      {
        ...route("listDisplayAgreements", "auth", "public"),
        query: DisplayQuery,
        response: { 200: DisplayAgreements },
      },
    );
}
