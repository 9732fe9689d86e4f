import { beforeAll, describe, expect, test } from "bun:test";
import { DEMO_KEY, DEMO_OWNER, DEMO_PASSWORD, hasDemo, seedDemo } from "../src/cli/demo";
import { useServer } from "./helpers/server";

const s = useServer({ devCodes: true });
let owner: { token: string };

beforeAll(async () => {
  await seedDemo(s.server.rt, s.server.url);
  const res = await s.call("POST", "/api/v1/auth/sign-in/password", {
    json: { tenantKey: DEMO_KEY, identifier: DEMO_OWNER, password: DEMO_PASSWORD },
  });
  expect(res.status).toBe(200);
  owner = { token: res.body.accessToken };
});

describe("learnspace demo — the demo school", () => {
  test("an owner, three teachers and 60 students, in three classes", async () => {
    expect(hasDemo(s.server.rt)).toBe(true);
    expect((await s.as(owner).get("/members?pageSize=1")).body.total).toBe(64);
    const groups = (await s.as(owner).get("/groups")).body.groups;
    expect(groups.map((g: any) => [g.name, g.memberCount])).toEqual([
      ["1-1반", 20],
      ["1-2반", 20],
      ["1-3반", 20],
    ]);
  });

  test("teachers and students sign in with the demo password", async () => {
    for (const identifier of ["t-kim", "s2601"]) {
      const res = await s.call("POST", "/api/v1/auth/sign-in/password", {
        json: { tenantKey: DEMO_KEY, identifier, password: DEMO_PASSWORD },
      });
      expect(res.status).toBe(200);
    }
  });

  test("seeding twice is refused: the school is seeded once", async () => {
    await expect(seedDemo(s.server.rt, s.server.url)).rejects.toThrow();
  });
});
