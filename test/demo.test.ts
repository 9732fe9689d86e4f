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

  test("a demo teacher holds only what a teacher needs: no reset, deactivation, e-mail change or takeover of a colleague", async () => {
    const signIn = async (identifier: string) => {
      const res = await s.call("POST", "/api/v1/auth/sign-in/password", {
        json: { tenantKey: DEMO_KEY, identifier, password: DEMO_PASSWORD },
      });
      expect(res.status).toBe(200);
      return { token: res.body.accessToken as string };
    };
    const kim = await signIn("t-kim");
    const members = (await s.as(kim).get("/members?pageSize=100")).body.members as any[];
    const lee = members.find((m) => m.userId === "t-lee");
    expect(lee).toBeDefined();
    const denied = [
      await s.as(kim).post(`/members/${lee.id}/reset-password`, { password: "taken-over-123" }),
      await s.as(kim).patch(`/members/${lee.id}`, { isActive: false }),
      await s.as(kim).patch(`/members/${lee.id}`, { email: "kim-again@demo.school" }),
      await s.as(kim).post("/members", { displayName: "Extra", email: "extra@demo.school" }),
    ];
    expect(denied.map((r) => r.status)).toEqual([403, 403, 403, 403]);
    // A colleague's class: not theirs to take over (tenant-settings:manage only).
    const leeSpace = (await s.as(owner).get("/spaces?limit=100")).body.spaces.find((x: any) => x.name.includes("수학"));
    expect(leeSpace).toBeDefined();
    const take = await s.as(kim).post(`/spaces/${leeSpace.id}/members`, { userIds: [lee.id], role: "ADMIN" });
    expect([403, 404]).toContain(take.status);
    // What a teacher does still works: read members, open a class, upload.
    expect((await s.as(kim).post("/spaces", { name: "Kim's club" })).status).toBe(201);
    expect((await s.as(kim).post("/files", { fileName: "a.txt", contentType: "text/plain", size: 1 })).status).toBe(201);
    expect((await signIn("t-lee")).token).toBeTruthy();
  });

  test("seeding twice is refused: the school is seeded once", async () => {
    await expect(seedDemo(s.server.rt, s.server.url)).rejects.toThrow();
  });
});
