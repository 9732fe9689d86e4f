import { useQuery } from "@tanstack/react-query";
import { api, ok } from "../../api/client";
import type { paths } from "../../api/schema";

export type Pending =
  paths["/api/v1/me/agreements/pending"]["get"]["responses"]["200"]["content"]["application/json"]["platformAgreements"][number];
export type AgreementRecord =
  paths["/api/v1/me/agreements"]["get"]["responses"]["200"]["content"]["application/json"]["tenantAgreements"][number];

/** listPendingAgreements: active terms at their current version without an effective consent of mine (platform first). */
export function usePending() {
  return useQuery({
    queryKey: ["agreements", "pending"],
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
