import { type TermTables, termConsentTable, termTopicTable, termVersionTable } from "./columns";

/** The tenant's own terms and its members' consents (subject = member id). */
export const termTopics = termTopicTable("term_topics");
export const termVersions = termVersionTable("term_versions");
export const termConsents = termConsentTable("term_consents");

export const tenantTermTables: TermTables = { scope: "tenant", topics: termTopics, versions: termVersions, consents: termConsents };
