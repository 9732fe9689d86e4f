import { type TermTables, termConsentTable, termTopicTable, termVersionTable } from "./columns";

/** Platform terms, managed by the operator (`learnspace platform-terms`), and their consents. */
export const platformTermTopics = termTopicTable("platform_term_topics");
export const platformTermVersions = termVersionTable("platform_term_versions");
export const platformTermConsents = termConsentTable("platform_term_consents");

export const platformTermTables: TermTables = {
  scope: "platform",
  topics: platformTermTopics,
  versions: platformTermVersions,
  consents: platformTermConsents,
};
