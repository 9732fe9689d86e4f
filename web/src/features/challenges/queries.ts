import type { paths } from "../../api/schema";

export type ChallengeDetail =
  paths["/api/v1/spaces/{spaceId}/challenges/{challengeId}"]["get"]["responses"]["200"]["content"]["application/json"];
export type ChallengeBody = NonNullable<paths["/api/v1/spaces/{spaceId}/challenges"]["post"]["requestBody"]>["content"]["application/json"];

/** The challenge's query-string key (the space's home keeps its tab; the open challenge is `&challenge=`). */
export const challengeKey = (spaceId: string, challengeId: string) => ["challenge", spaceId, challengeId] as const;
