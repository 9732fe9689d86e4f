import { Elysia } from "elysia";
import { authPlugin } from "../../platform/auth/context";
import { route } from "../../platform/http/route";
import type { Runtime } from "../../platform/runtime";
import { agreementsRoutes } from "./agreements";
import { CreateTermBody, SetCurrentVersionBody, TermList, TopicParams, UpdateTermBody } from "./model";
import { createTerm, listTerms, setCurrentTermVersion, updateTerm } from "./service";
import { tenantTermTables } from "./tables";

export { needsAgreementConsent } from "./consent";

const MANAGE = "permission:tenant-settings:manage" as const;

export function termsModule(rt: Runtime) {
  return new Elysia({ name: "module.terms" })
    .use(authPlugin(rt))
    .get("/terms", ({ actor }) => listTerms(actor.db, tenantTermTables), {
      ...route("listTerms", "terms", MANAGE),
      response: { 200: TermList },
    })
    .post(
      "/terms",
      ({ actor, body, set }) => {
        set.status = 201;
        return createTerm(actor.db, tenantTermTables, body);
      },
      {
        ...route("createTerm", "terms", MANAGE),
        body: CreateTermBody,
        response: { 201: TermList },
      },
    )
    .patch("/terms/:topic", ({ actor, params, body }) => updateTerm(actor.db, tenantTermTables, params.topic, body), {
      ...route("updateTerm", "terms", MANAGE),
      params: TopicParams,
      body: UpdateTermBody,
      response: { 200: TermList },
    })
    .put(
      "/terms/:topic/current-version",
      ({ actor, params, body }) => setCurrentTermVersion(actor.db, tenantTermTables, params.topic, body.currentVersion),
      {
        ...route("setCurrentTermVersion", "terms", MANAGE),
        params: TopicParams,
        body: SetCurrentVersionBody,
        response: { 200: TermList },
      },
    )
    .use(agreementsRoutes(rt));
}
