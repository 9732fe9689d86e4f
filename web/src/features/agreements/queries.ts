import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, type Init, ok } from "../../api/client";
import type { paths } from "../../api/schema";

export type Pending =
  paths["/api/v1/me/agreements/pending"]["get"]["responses"]["200"]["content"]["application/json"]["platformAgreements"][number];
export type AgreementRecord =
  paths["/api/v1/me/agreements"]["get"]["responses"]["200"]["content"]["application/json"]["tenantAgreements"][number];

/** The agreements' cache keys: `all` covers the pending, the agreed and the displayed terms. */
export const agreementKeys = {
  all: ["agreements"] as const,
  pending: ["agreements", "pending"] as const,
  mine: ["agreements", "mine"] as const,
  display: (tenantKey: string | null) => ["agreements", "display", tenantKey] as const,
};

export const myAgreementsQuery = () => queryOptions({ queryKey: agreementKeys.mine, queryFn: () => ok(api.GET("/api/v1/me/agreements")) });

/** The school's displayed terms (records carry no titles: these name them). */
export const displayedTermsQuery = (tenantKey: string | null) =>
  queryOptions({
    queryKey: agreementKeys.display(tenantKey),
    queryFn: () => ok(api.GET("/api/v1/public/agreements", { params: { query: { tenantKey: tenantKey ?? undefined } } })),
  });

/** listPendingAgreements: active terms at their current version without an effective consent of mine (platform first). */
export function usePending() {
  return useQuery({
    queryKey: agreementKeys.pending,
    queryFn: async () => {
      const r = await ok(api.GET("/api/v1/me/agreements/pending"));
      return { needConsent: r.needConsent, items: [...r.platformAgreements, ...r.tenantAgreements] };
    },
  });
}

/** A term's name in the reader's language: its title, else its topic (a term may have no title). */
export const termName = (a: { topic: string; title: { ko: string; en: string } }, lang: "ko" | "en") =>
  a.title[lang] || a.title[lang === "ko" ? "en" : "ko"] || a.topic;

/** The consentAgreements items for the chosen pending terms. */
export const consentBody = (chosen: Pending[]) => ({
  agreements: chosen.map((a) => ({ scope: a.scope, topic: a.topic, version: a.version })),
});

// The area's writes, one function per operation (named by its operationId).
export const consentAgreements = (init: Init<"/api/v1/me/agreements", "post">) => ok(api.POST("/api/v1/me/agreements", init));
export const withdrawAgreement = (init: Init<"/api/v1/me/agreements/withdraw", "post">) =>
  ok(api.POST("/api/v1/me/agreements/withdraw", init));
