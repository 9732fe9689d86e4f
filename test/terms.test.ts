import { describe, expect, test } from "bun:test";
import { createMemberFixture, createTenantFixture, expectProblem, useServer } from "./helpers/server";

const api = useServer();

async function fixture() {
  const tenant = await createTenantFixture(api.server);
  const member = await createMemberFixture(api.server, tenant);
  return { tenant, owner: tenant.token, member: member.token };
}

const privacy = {
  topic: "PRIVACY",
  isEssential: true,
  order: 2,
  consentTtlDays: 365,
  title: { ko: "개인정보", en: "Privacy" },
  documentUrl: { ko: "https://example.com/ko/privacy", en: "https://example.com/en/privacy" },
};

describe("POST /api/v1/terms — createTerm", () => {
  test("creates version 1 of a new topic with defaults", async () => {
    const { owner } = await fixture();
    const res = await api.call("POST", "/api/v1/terms", { token: owner, json: { topic: "TOS_1" } });
    expect(res.status).toBe(201);
    expect(res.body.terms).toEqual([
      {
        scope: "tenant",
        topic: "TOS_1",
        version: 1,
        isEssential: true,
        isVisible: true,
        order: 0,
        title: { ko: "", en: "" },
        documentUrl: { ko: "", en: "" },
        consentTtlDays: null,
        isActive: true,
        consentCount: 0,
      },
    ]);
  });

  test("adds version n+1 on an existing topic and makes it current", async () => {
    const { owner } = await fixture();
    await api.call("POST", "/api/v1/terms", { token: owner, json: privacy });
    const res = await api.call("POST", "/api/v1/terms", { token: owner, json: { ...privacy, title: { ko: "v2", en: "v2" } } });
    expect(res.status).toBe(201);
    expect(res.body.terms).toHaveLength(1);
    expect(res.body.terms[0]).toMatchObject({ topic: "PRIVACY", version: 2, title: { en: "v2" }, consentTtlDays: 365, order: 2 });
  });

  test("lists terms by order, then topic", async () => {
    const { owner } = await fixture();
    await api.call("POST", "/api/v1/terms", { token: owner, json: { topic: "B", order: 1 } });
    await api.call("POST", "/api/v1/terms", { token: owner, json: { topic: "A", order: 1 } });
    await api.call("POST", "/api/v1/terms", { token: owner, json: { topic: "Z", order: 0 } });
    const res = await api.call("GET", "/api/v1/terms", { token: owner });
    expect(res.body.terms.map((t: { topic: string }) => t.topic)).toEqual(["Z", "A", "B"]);
  });

  test.each([
    [{ topic: "" }, "topic"],
    [{ topic: "lower" }, "topic"],
    [{ topic: "A-B" }, "topic"],
    [{ topic: "X".repeat(51) }, "topic"],
    [{}, "topic"],
    [{ topic: "OK", order: -1 }, "order"],
    [{ topic: "OK", order: 10000 }, "order"],
    [{ topic: "OK", order: 1.5 }, "order"],
    [{ topic: "OK", consentTtlDays: 0 }, "consentTtlDays"],
    [{ topic: "OK", isEssential: "yes" }, "isEssential"],
    [{ topic: "OK", title: { ko: "x" } }, "title.en"],
  ])("returns 400 for %j", async (json, field) => {
    const { owner } = await fixture();
    const body = expectProblem(await api.call("POST", "/api/v1/terms", { token: owner, json }), 400, "VALIDATION_FAILED");
    expect(body.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  test("accepts a topic of 50 characters and order 9999", async () => {
    const { owner } = await fixture();
    const res = await api.call("POST", "/api/v1/terms", { token: owner, json: { topic: "X".repeat(50), order: 9999 } });
    expect(res.status).toBe(201);
  });

  test("returns 401 without a token", async () => {
    expectProblem(await api.call("POST", "/api/v1/terms", { json: { topic: "A" } }), 401, "UNAUTHENTICATED");
  });

  test("returns 403 without tenant-settings:manage", async () => {
    const { member } = await fixture();
    expectProblem(await api.call("POST", "/api/v1/terms", { token: member, json: { topic: "A" } }), 403, "FORBIDDEN");
  });
});

describe("GET /api/v1/terms — listTerms", () => {
  test("returns an empty list for a new tenant", async () => {
    const { owner } = await fixture();
    const res = await api.call("GET", "/api/v1/terms", { token: owner });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ terms: [] });
  });

  test("does not show another tenant's terms", async () => {
    const a = await fixture();
    const b = await fixture();
    await api.call("POST", "/api/v1/terms", { token: a.owner, json: { topic: "ONLY_A" } });
    expect((await api.call("GET", "/api/v1/terms", { token: b.owner })).body.terms).toEqual([]);
  });

  test("returns 401 and 403", async () => {
    const { member } = await fixture();
    expectProblem(await api.call("GET", "/api/v1/terms"), 401, "UNAUTHENTICATED");
    expectProblem(await api.call("GET", "/api/v1/terms", { token: member }), 403, "FORBIDDEN");
  });

  test("a member with tenant-settings:manage may list", async () => {
    const { tenant } = await fixture();
    const admin = await createMemberFixture(api.server, tenant, { permissions: ["tenant-settings:manage"] });
    expect((await api.call("GET", "/api/v1/terms", { token: admin.token })).status).toBe(200);
  });
});

describe("PATCH /api/v1/terms/{topic} — updateTerm", () => {
  test("edits the current version in place", async () => {
    const { owner } = await fixture();
    await api.call("POST", "/api/v1/terms", { token: owner, json: privacy });
    const res = await api.call("PATCH", "/api/v1/terms/PRIVACY", {
      token: owner,
      json: { isEssential: false, isVisible: false, order: 7, consentTtlDays: null, isActive: false, title: { ko: "새", en: "New" } },
    });
    expect(res.status).toBe(200);
    expect(res.body.terms[0]).toMatchObject({
      version: 1,
      isEssential: false,
      isVisible: false,
      order: 7,
      consentTtlDays: null,
      isActive: false,
      title: { ko: "새", en: "New" },
      documentUrl: privacy.documentUrl,
    });
    const list = await api.call("GET", "/api/v1/terms", { token: owner });
    expect(list.body.terms[0]).toMatchObject({ version: 1, isActive: false, order: 7 });
  });

  test("leaves absent fields unchanged", async () => {
    const { owner } = await fixture();
    await api.call("POST", "/api/v1/terms", { token: owner, json: privacy });
    const res = await api.call("PATCH", "/api/v1/terms/PRIVACY", { token: owner, json: {} });
    expect(res.body.terms[0]).toMatchObject({ order: 2, consentTtlDays: 365, isEssential: true, title: privacy.title });
  });

  test("returns 404 for an unknown topic and for another tenant's topic", async () => {
    const a = await fixture();
    const b = await fixture();
    await api.call("POST", "/api/v1/terms", { token: a.owner, json: { topic: "MINE" } });
    expectProblem(await api.call("PATCH", "/api/v1/terms/NOPE", { token: a.owner, json: {} }), 404, "NOT_FOUND");
    expectProblem(await api.call("PATCH", "/api/v1/terms/MINE", { token: b.owner, json: {} }), 404, "NOT_FOUND");
  });

  test.each([
    [{ order: 10000 }, "order"],
    [{ order: -1 }, "order"],
    [{ consentTtlDays: -5 }, "consentTtlDays"],
    [{ isActive: "no" }, "isActive"],
  ])("returns 400 for %j", async (json, field) => {
    const { owner } = await fixture();
    await api.call("POST", "/api/v1/terms", { token: owner, json: privacy });
    const body = expectProblem(await api.call("PATCH", "/api/v1/terms/PRIVACY", { token: owner, json }), 400, "VALIDATION_FAILED");
    expect(body.errors[0].field).toBe(field);
  });

  test("returns 401 and 403", async () => {
    const { member } = await fixture();
    expectProblem(await api.call("PATCH", "/api/v1/terms/A", { json: {} }), 401, "UNAUTHENTICATED");
    expectProblem(await api.call("PATCH", "/api/v1/terms/A", { token: member, json: {} }), 403, "FORBIDDEN");
  });
});

describe("PUT /api/v1/terms/{topic}/current-version — setCurrentTermVersion", () => {
  test("selects an earlier version; a new version is n+1 after the latest", async () => {
    const { owner } = await fixture();
    await api.call("POST", "/api/v1/terms", { token: owner, json: { ...privacy, title: { ko: "1", en: "1" } } });
    await api.call("POST", "/api/v1/terms", { token: owner, json: { ...privacy, title: { ko: "2", en: "2" } } });
    const res = await api.call("PUT", "/api/v1/terms/PRIVACY/current-version", { token: owner, json: { currentVersion: 1 } });
    expect(res.status).toBe(200);
    expect(res.body.terms[0]).toMatchObject({ version: 1, title: { en: "1" } });
    expect((await api.call("GET", "/api/v1/terms", { token: owner })).body.terms[0].version).toBe(1);
    const third = await api.call("POST", "/api/v1/terms", { token: owner, json: privacy });
    expect(third.body.terms[0].version).toBe(3);
  });

  test("returns 400 for an unknown version", async () => {
    const { owner } = await fixture();
    await api.call("POST", "/api/v1/terms", { token: owner, json: privacy });
    const body = expectProblem(
      await api.call("PUT", "/api/v1/terms/PRIVACY/current-version", { token: owner, json: { currentVersion: 2 } }),
      400,
      "VALIDATION_FAILED",
    );
    expect(body.errors[0].field).toBe("currentVersion");
  });

  test.each([[{}], [{ currentVersion: 0 }], [{ currentVersion: null }], [{ currentVersion: 1.5 }]])("returns 400 for %j", async (json) => {
    const { owner } = await fixture();
    await api.call("POST", "/api/v1/terms", { token: owner, json: privacy });
    const body = expectProblem(
      await api.call("PUT", "/api/v1/terms/PRIVACY/current-version", { token: owner, json }),
      400,
      "VALIDATION_FAILED",
    );
    expect(body.errors[0].field).toBe("currentVersion");
  });

  test("returns 404 for an unknown topic", async () => {
    const { owner } = await fixture();
    expectProblem(
      await api.call("PUT", "/api/v1/terms/NOPE/current-version", { token: owner, json: { currentVersion: 1 } }),
      404,
      "NOT_FOUND",
    );
  });

  test("returns 401 and 403", async () => {
    const { member } = await fixture();
    expectProblem(await api.call("PUT", "/api/v1/terms/A/current-version", { json: { currentVersion: 1 } }), 401, "UNAUTHENTICATED");
    expectProblem(
      await api.call("PUT", "/api/v1/terms/A/current-version", { token: member, json: { currentVersion: 1 } }),
      403,
      "FORBIDDEN",
    );
  });
});
