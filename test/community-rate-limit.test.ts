// The per-member write limit on comments, messages and participant posts (docs/rules/community.md#write-limit).
import { describe, expect, test } from "bun:test";
import { loadConfig } from "../src/config";
import { useContentSpace } from "./helpers/fixture";
import { expectProblem, useServer } from "./helpers/server";

const api = useServer({ communityRateLimit: 3 });
const { as } = api;
const fx = useContentSpace(api, { spaceName: "Busy class", participants: ["Flood", "Calm"] });

describe("LEARNSPACE_COMMUNITY_RATE_LIMIT", () => {
  test("a member's fourth write in a minute is 429 RATE_LIMITED with Retry-After; others are not affected", async () => {
    const [flood, calm] = fx.participants;
    await as(fx.owner).patch(`/spaces/${fx.spaceId}`, { messageEnabled: true });
    const post = (await as(fx.owner).post("/posts", { spaceId: fx.spaceId, title: "Notice" })).body.id as string;
    // Comments, messages and participant posts share the member's budget.
    expect((await as(flood).post(`/posts/${post}/comments`, { body: "1" })).status).toBe(201);
    expect((await as(flood).post(`/spaces/${fx.spaceId}/conversations/${flood.profileId}/messages`, { body: "2" })).status).toBe(201);
    expect((await as(flood).post("/posts", { spaceId: fx.spaceId, title: "3", type: "GENERAL" })).status).toBe(201);
    const over = await as(flood).post(`/posts/${post}/comments`, { body: "4" });
    expectProblem(over, 429, "RATE_LIMITED");
    const wait = Number(over.headers.get("retry-after"));
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(60);
    expectProblem(
      await as(flood).post(`/spaces/${fx.spaceId}/conversations/${flood.profileId}/messages`, { body: "5" }),
      429,
      "RATE_LIMITED",
    );
    // A refused write is checked first (403 here) and does not answer 429.
    expect((await as(flood).patch(`/posts/${post}`, { title: "x" })).status).toBe(403);
    // Another member, and the ADMINs' own posts, are unaffected.
    expect((await as(calm).post(`/posts/${post}/comments`, { body: "hello" })).status).toBe(201);
    for (let i = 0; i < 4; i++) expect((await as(fx.owner).post("/posts", { spaceId: fx.spaceId, title: `n${i}` })).status).toBe(201);
    // Reading is never limited.
    expect((await as(flood).get(`/posts/${post}/comments`)).body.comments).toHaveLength(2);
  });

  test("the setting defaults to 20 a minute, 0 turns it off, and a bad value names the variable", () => {
    expect(loadConfig([], {}).communityRateLimit).toBe(20);
    expect(loadConfig([], { LEARNSPACE_COMMUNITY_RATE_LIMIT: "0" }).communityRateLimit).toBe(0);
    expect(() => loadConfig([], { LEARNSPACE_COMMUNITY_RATE_LIMIT: "-1" })).toThrow("LEARNSPACE_COMMUNITY_RATE_LIMIT");
  });
});
