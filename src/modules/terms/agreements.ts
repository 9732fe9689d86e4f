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
      ...route("listMyAgreements", "auth", "session", {
        summary: "List your agreements",
        description: "Every platform and tenant agreement record of the caller, effective, expired or withdrawn.",
      }),
      response: { 200: MyAgreements },
    })
    .get("/me/agreements/pending", ({ actor }) => listPendingAgreements(rt, actor), {
      ...route("listPendingAgreements", "auth", "session", {
        summary: "List agreements waiting for consent",
        description:
          "The visible terms the caller has not agreed to (or whose consent expired or was withdrawn); `needConsent` is true while an essential one is among them.",
      }),
      response: { 200: PendingAgreements },
    })
    .post(
      "/me/agreements",
      ({ actor, body, set }) => {
        set.status = 201;
        return consentAgreements(rt, actor, body);
      },
      {
        ...route("consentAgreements", "auth", "session", {
          summary: "Consent to agreements",
          description:
            "Records the caller's consent to the given term versions (`expiresAt` from the term's `consentTtlDays`) and answers what is still pending. Consenting again to an effective record changes nothing.",
          errors: ["400 `VALIDATION_FAILED` when a `version` is not the current version of an active term"],
        }),
        body: ConsentBody,
        response: { 201: PendingAgreements },
      },
    )
    .post("/me/agreements/withdraw", ({ actor, body }) => withdrawAgreement(rt, actor, body), {
      ...route("withdrawAgreement", "auth", "session", {
        summary: "Withdraw an agreement",
        description:
          "Withdraws the caller's consent to an optional term (`withdrawnAt` set, `isEffective` false) and answers the caller's records.",
        errors: ["404 `NOT_FOUND` when there is no effective record for the topic", "409 `INVALID_STATE` for an essential term"],
      }),
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
        ...route("listDisplayAgreements", "auth", "public", {
          summary: "List the agreements to show at sign-up",
          description:
            "The visible platform terms, and with `?tenantKey=` the tenant's, in display order (without it `tenantAgreements` is empty).",
          errors: ["404 `NOT_FOUND` for an unknown tenant"],
        }),
        query: DisplayQuery,
        response: { 200: DisplayAgreements },
      },
    );
}
