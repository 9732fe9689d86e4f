import { authPlugin } from "../../platform/auth/context";
import { apiModule, route } from "../../platform/http/route";
import type { Runtime } from "../../platform/runtime";
import { agreementsRoutes } from "./agreements";
import { CreateTermBody, SetCurrentVersionBody, TermList, TopicParams, UpdateTermBody } from "./model";
import { createTerm, listTerms, setCurrentTermVersion, updateTerm } from "./service";
import { tenantTermTables } from "./tables";

export { needsAgreementConsent } from "./consent";

const MANAGE = "permission:tenant-settings:manage" as const;

export function termsModule(rt: Runtime) {
  return apiModule("module.terms")
    .use(authPlugin(rt))
    .get("/terms", ({ actor }) => listTerms(actor.db, tenantTermTables), {
      ...route("listTerms", "terms", MANAGE, {
        summary: "List terms",
        description: "Every term topic of the tenant with its current version, flags and consent count.",
      }),
      response: { 200: TermList },
    })
    .post(
      "/terms",
      ({ actor, body, set }) => {
        set.status = 201;
        return createTerm(actor.db, tenantTermTables, body);
      },
      {
        ...route("createTerm", "terms", MANAGE, {
          summary: "Create a term or a new version",
          description:
            "A new topic starts at version 1; a `topic` that exists gets version n+1, which becomes current. Answers every term.",
        }),
        body: CreateTermBody,
        response: { 201: TermList },
      },
    )
    .patch("/terms/:topic", ({ actor, params, body }) => updateTerm(actor.db, tenantTermTables, params.topic, body), {
      ...route("updateTerm", "terms", MANAGE, {
        summary: "Update a term",
        description:
          "Edits the current version of a term in place (flags, order, TTL, titles, document URLs, `isActive`). Answers every term.",
        errors: ["404 `NOT_FOUND` for an unknown topic"],
      }),
      params: TopicParams,
      body: UpdateTermBody,
      response: { 200: TermList },
    })
    .put(
      "/terms/:topic/current-version",
      ({ actor, params, body }) => setCurrentTermVersion(actor.db, tenantTermTables, params.topic, body.currentVersion),
      {
        ...route("setCurrentTermVersion", "terms", MANAGE, {
          summary: "Select a term's current version",
          description: "Makes an existing version of the topic current. Answers every term.",
          errors: ["400 `VALIDATION_FAILED` for a version that does not exist", "404 `NOT_FOUND` for an unknown topic"],
        }),
        params: TopicParams,
        body: SetCurrentVersionBody,
        response: { 200: TermList },
      },
    )
    .use(agreementsRoutes(rt));
}
