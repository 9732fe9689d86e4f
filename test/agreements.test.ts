import { beforeAll, describe, expect, test } from "bun:test";
import { platformTermsCommand } from "../src/cli/platform-terms";
import { loadConfig } from "../src/config";
import { needsAgreementConsent } from "../src/modules/terms";
import { signUpVerified } from "./helpers/auth";
import { createMemberFixture, createTenantFixture, expectProblem, useServer } from "./helpers/server";

const api = useServer({ devCodes: true });

function cli(...args: string[]) {
  const lines: string[] = [];
  const code = platformTermsCommand(loadConfig([], {}, { dataDir: api.server.dataDir }), args, (l) => lines.push(l));
  return { code, out: lines.join("\n") };
}

// Platform terms are shared by every tenant of this server: one essential, one optional.
beforeAll(() => {
  expect(cli("create", "P_TOS", "--order", "1", "--title-en", "Platform ToS").code).toBe(0);
  expect(cli("create", "P_MARKETING", "--essential", "false", "--order", "2", "--ttl-days", "30").code).toBe(0);
});

async function fixture() {
  const tenant = await createTenantFixture(api.server);
  const member = await createMemberFixture(api.server, tenant);
  await api.call("POST", "/api/v1/terms", {
    token: tenant.token,
    json: { topic: "T_PRIVACY", order: 1, title: { ko: "개인", en: "Privacy" } },
  });
  await api.call("POST", "/api/v1/terms", {
    token: tenant.token,
    json: { topic: "T_NEWS", isEssential: false, order: 2, consentTtlDays: 10 },
  });
  return { tenant, owner: tenant.token, member };
}

const all = [
  { scope: "platform", topic: "P_TOS", version: 1 },
  { scope: "platform", topic: "P_MARKETING", version: 1 },
  { scope: "tenant", topic: "T_PRIVACY", version: 1 },
  { scope: "tenant", topic: "T_NEWS", version: 1 },
];

describe("learnspace platform-terms — platform terms CLI", () => {
  test("lists, updates and versions platform terms", () => {
    expect(cli("create", "P_TMP", "--visible", "false").code).toBe(0);
    expect(cli("create", "P_TMP").code).toBe(0);
    expect(cli("set-current", "P_TMP", "1").code).toBe(0);
    expect(cli("set-current", "P_TMP", "9").code).toBe(1);
    expect(cli("update", "P_TMP", "--active", "false").code).toBe(0);
    const listed = JSON.parse(cli("list").out).terms.find((t: { topic: string }) => t.topic === "P_TMP");
    expect(listed).toMatchObject({ scope: "platform", version: 1, isVisible: false, isActive: false });
    expect(cli("create", "bad topic").code).toBe(1);
    expect(cli("update", "NOPE").out).toContain("no such topic");
    expect(cli("frobnicate").code).toBe(2);
  });
});

describe("GET /api/v1/me/agreements/pending — listPendingAgreements", () => {
  test("lists active terms never agreed, platform and tenant, and needConsent", async () => {
    const { member } = await fixture();
    const res = await api.call("GET", "/api/v1/me/agreements/pending", { token: member.token });
    expect(res.status).toBe(200);
    expect(res.body.needConsent).toBe(true);
    expect(res.body.platformAgreements.map((a: { topic: string }) => a.topic)).toEqual(["P_TOS", "P_MARKETING"]);
    expect(res.body.tenantAgreements).toEqual([
      {
        scope: "tenant",
        topic: "T_PRIVACY",
        version: 1,
        isEssential: true,
        isVisible: true,
        order: 1,
        title: { ko: "개인", en: "Privacy" },
        documentUrl: { ko: "", en: "" },
        reason: "never-agreed",
      },
      expect.objectContaining({ topic: "T_NEWS", isEssential: false, reason: "never-agreed" }),
    ]);
  });

  test("inactive terms are not pending", async () => {
    const { owner, member } = await fixture();
    await api.call("PATCH", "/api/v1/terms/T_PRIVACY", { token: owner, json: { isActive: false } });
    const res = await api.call("GET", "/api/v1/me/agreements/pending", { token: member.token });
    expect(res.body.tenantAgreements.map((a: { topic: string }) => a.topic)).toEqual(["T_NEWS"]);
  });

  test("returns 401 without a token", async () => {
    expectProblem(await api.call("GET", "/api/v1/me/agreements/pending"), 401, "UNAUTHENTICATED");
  });
});

describe("POST /api/v1/me/agreements — consentAgreements", () => {
  test("records consents, returns what is still pending and clears needsAgreementConsent", async () => {
    const { tenant, member } = await fixture();
    const actor = { accountId: null, email: member.email, tenantId: tenant.tenantId, memberId: member.memberId };
    const needs = () => api.server.rt.tenants.use(tenant.tenantId, (h) => needsAgreementConsent(api.server.rt, { ...actor, db: h.db }));
    expect(needs()).toBe(true);
    const res = await api.call("POST", "/api/v1/me/agreements", {
      token: member.token,
      json: { agreements: [all[0], all[2]] },
    });
    expect(res.status).toBe(201);
    expect(res.body.needConsent).toBe(false);
    expect(res.body.platformAgreements.map((a: { topic: string }) => a.topic)).toEqual(["P_MARKETING"]);
    expect(res.body.tenantAgreements.map((a: { topic: string }) => a.topic)).toEqual(["T_NEWS"]);
    expect(needs()).toBe(false);
    const mine = await api.call("GET", "/api/v1/me/agreements", { token: member.token });
    expect(mine.body.platformAgreements).toEqual([
      expect.objectContaining({
        scope: "platform",
        topic: "P_TOS",
        version: 1,
        isEssential: true,
        expiresAt: null,
        withdrawnAt: null,
        isEffective: true,
      }),
    ]);
    expect(mine.body.tenantAgreements).toEqual([expect.objectContaining({ scope: "tenant", topic: "T_PRIVACY", isEffective: true })]);
  });

  test("needsAgreementConsent follows the terms as they change: a new essential term, a platform term made by the command", async () => {
    const { tenant, member } = await fixture();
    const actor = { accountId: null, email: member.email, tenantId: tenant.tenantId, memberId: member.memberId };
    const needs = () => api.server.rt.tenants.use(tenant.tenantId, (h) => needsAgreementConsent(api.server.rt, { ...actor, db: h.db }));
    expect((await api.call("POST", "/api/v1/me/agreements", { token: member.token, json: { agreements: all } })).status).toBe(201);
    // looked up twice: the second answer comes from the tenant's essential terms cached at the first (db/sqlite.ts tableGuardedCache)
    expect(needs()).toBe(false);
    expect(needs()).toBe(false);
    await api.call("POST", "/api/v1/terms", { token: tenant.token, json: { topic: "T_RULES", order: 3 } });
    expect(needs()).toBe(true);
    expect(
      (
        await api.call("POST", "/api/v1/me/agreements", {
          token: member.token,
          json: { agreements: [{ scope: "tenant", topic: "T_RULES", version: 1 }] },
        })
      ).status,
    ).toBe(201);
    expect(needs()).toBe(false);
    // the command writes the platform file through its own connection
    expect(cli("create", "P_PRIVACY", "--order", "3").code).toBe(0);
    expect(needs()).toBe(true);
    expect(cli("update", "P_PRIVACY", "--active", "false").code).toBe(0);
    expect(needs()).toBe(false);
  });

  test("sets expiresAt from consentTtlDays and counts consents on the term", async () => {
    const { owner, member } = await fixture();
    await api.call("POST", "/api/v1/me/agreements", { token: member.token, json: { agreements: all } });
    const mine = await api.call("GET", "/api/v1/me/agreements", { token: member.token });
    const news = mine.body.tenantAgreements.find((a: { topic: string }) => a.topic === "T_NEWS");
    expect(Date.parse(news.expiresAt) - Date.parse(news.agreedAt)).toBe(10 * 24 * 60 * 60 * 1000);
    const marketing = mine.body.platformAgreements.find((a: { topic: string }) => a.topic === "P_MARKETING");
    expect(Date.parse(marketing.expiresAt) - Date.parse(marketing.agreedAt)).toBe(30 * 24 * 60 * 60 * 1000);
    const terms = await api.call("GET", "/api/v1/terms", { token: owner });
    expect(terms.body.terms.map((t: { consentCount: number }) => t.consentCount)).toEqual([1, 1]);
    const pending = await api.call("GET", "/api/v1/me/agreements/pending", { token: member.token });
    expect(pending.body).toEqual({ needConsent: false, platformAgreements: [], tenantAgreements: [] });
  });

  test("consenting again to an effective record changes nothing", async () => {
    const { member } = await fixture();
    await api.call("POST", "/api/v1/me/agreements", { token: member.token, json: { agreements: [all[2]] } });
    const again = await api.call("POST", "/api/v1/me/agreements", { token: member.token, json: { agreements: [all[2], all[2]] } });
    expect(again.status).toBe(201);
    const mine = await api.call("GET", "/api/v1/me/agreements", { token: member.token });
    expect(mine.body.tenantAgreements).toHaveLength(1);
  });

  test("a new version makes the term pending again (reason new-version)", async () => {
    const { owner, member } = await fixture();
    await api.call("POST", "/api/v1/me/agreements", { token: member.token, json: { agreements: all } });
    await api.call("POST", "/api/v1/terms", { token: owner, json: { topic: "T_PRIVACY" } });
    const pending = await api.call("GET", "/api/v1/me/agreements/pending", { token: member.token });
    expect(pending.body.needConsent).toBe(true);
    expect(pending.body.tenantAgreements).toEqual([expect.objectContaining({ topic: "T_PRIVACY", version: 2, reason: "new-version" })]);
    const stale = await api.call("POST", "/api/v1/me/agreements", {
      token: member.token,
      json: { agreements: [{ scope: "tenant", topic: "T_PRIVACY", version: 1 }] },
    });
    expect(expectProblem(stale, 400, "VALIDATION_FAILED").errors[0].field).toBe("agreements[0].version");
  });

  test("returns 400 for an unknown, inactive or other tenant's term", async () => {
    const a = await fixture();
    const b = await fixture();
    await api.call("POST", "/api/v1/terms", { token: a.owner, json: { topic: "ONLY_A" } });
    await api.call("PATCH", "/api/v1/terms/T_NEWS", { token: b.owner, json: { isActive: false } });
    for (const item of [
      { scope: "tenant", topic: "ONLY_A", version: 1 },
      { scope: "tenant", topic: "T_NEWS", version: 1 },
      { scope: "platform", topic: "T_PRIVACY", version: 1 },
    ]) {
      const res = await api.call("POST", "/api/v1/me/agreements", { token: b.member.token, json: { agreements: [all[2], item] } });
      expect(expectProblem(res, 400, "VALIDATION_FAILED").errors[0].field).toBe("agreements[1].topic");
    }
    // Nothing was written by the refused requests.
    expect((await api.call("GET", "/api/v1/me/agreements", { token: b.member.token })).body.tenantAgreements).toEqual([]);
  });

  test.each([
    [{}, "agreements"],
    [{ agreements: [] }, "agreements"],
    [{ agreements: [{ scope: "space", topic: "A", version: 1 }] }, "agreements[0].scope"],
    [{ agreements: [{ scope: "tenant", version: 1 }] }, "agreements[0].topic"],
    [{ agreements: [{ scope: "tenant", topic: "A", version: 0 }] }, "agreements[0].version"],
    [{ agreements: [{ scope: "tenant", topic: "A" }] }, "agreements[0].version"],
  ])("returns 400 for %j", async (json, field) => {
    const { member } = await fixture();
    const body = expectProblem(await api.call("POST", "/api/v1/me/agreements", { token: member.token, json }), 400, "VALIDATION_FAILED");
    expect(body.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  test("returns 401 without a token", async () => {
    expectProblem(await api.call("POST", "/api/v1/me/agreements", { json: { agreements: all } }), 401, "UNAUTHENTICATED");
  });
});

describe("GET /api/v1/me/agreements — listMyAgreements", () => {
  test("is empty before any consent and shows only the caller's records", async () => {
    const { tenant, member } = await fixture();
    const other = await createMemberFixture(api.server, tenant);
    await api.call("POST", "/api/v1/me/agreements", { token: other.token, json: { agreements: all } });
    const res = await api.call("GET", "/api/v1/me/agreements", { token: member.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ platformAgreements: [], tenantAgreements: [] });
  });

  test("returns 401 without a token", async () => {
    expectProblem(await api.call("GET", "/api/v1/me/agreements"), 401, "UNAUTHENTICATED");
  });
});

describe("POST /api/v1/me/agreements/withdraw — withdrawAgreement", () => {
  test("another tenant's member with the same e-mail neither sees nor withdraws the account's platform consents", async () => {
    const victim = await signUpVerified(api, { password: "Victim0pass!" });
    const consent = { agreements: [all[0], all[1]] };
    expect((await api.call("POST", "/api/v1/me/agreements", { token: victim.token, json: consent })).status).toBe(201);
    // A tenant admin gives a member the victim's e-mail and a password of its own, and signs in as it.
    const evil = await createTenantFixture(api.server);
    await createMemberFixture(api.server, evil, { email: victim.email });
    const signIn = await api.call("POST", "/api/v1/auth/sign-in/password", {
      json: { identifier: victim.email, password: "Passw0rd!", tenantKey: evil.tenantKey },
    });
    expect(signIn.status).toBe(200);
    const token = signIn.body.accessToken;
    expect((await api.call("GET", "/api/v1/me/agreements", { token })).body.platformAgreements).toEqual([]);
    expect(signIn.body.user.needsAgreementConsent).toBe(true);
    expectProblem(
      await api.call("POST", "/api/v1/me/agreements/withdraw", { token, json: { scope: "platform", topic: "P_MARKETING" } }),
      404,
      "NOT_FOUND",
    );
    // The verified account sees its consents from another tenant too, after proving the e-mail by code.
    const other = await createTenantFixture(api.server);
    await createMemberFixture(api.server, other, { email: victim.email });
    const code = (await api.call("POST", "/api/v1/auth/sign-in/request-code", { json: { email: victim.email } })).body.devCode;
    const byCode = await api.call("POST", "/api/v1/auth/sign-in/code", { json: { email: victim.email, code, tenantKey: other.tenantKey } });
    expect(byCode.status).toBe(200);
    const mine = await api.call("GET", "/api/v1/me/agreements", { token: byCode.body.accessToken });
    expect(mine.body.platformAgreements.map((a: { topic: string; isEffective: boolean }) => [a.topic, a.isEffective])).toEqual([
      ["P_MARKETING", true],
      ["P_TOS", true],
    ]);
  });

  test("withdraws an optional consent; the term is pending again", async () => {
    const { member } = await fixture();
    await api.call("POST", "/api/v1/me/agreements", { token: member.token, json: { agreements: all } });
    const res = await api.call("POST", "/api/v1/me/agreements/withdraw", {
      token: member.token,
      json: { scope: "tenant", topic: "T_NEWS" },
    });
    expect(res.status).toBe(200);
    const news = res.body.tenantAgreements.find((a: { topic: string }) => a.topic === "T_NEWS");
    expect(news.isEffective).toBe(false);
    expect(typeof news.withdrawnAt).toBe("string");
    const platform = await api.call("POST", "/api/v1/me/agreements/withdraw", {
      token: member.token,
      json: { scope: "platform", topic: "P_MARKETING" },
    });
    expect(platform.body.platformAgreements.find((a: { topic: string }) => a.topic === "P_MARKETING").isEffective).toBe(false);
    const pending = await api.call("GET", "/api/v1/me/agreements/pending", { token: member.token });
    expect(pending.body.needConsent).toBe(false);
    expect(pending.body.tenantAgreements).toEqual([expect.objectContaining({ topic: "T_NEWS", reason: "withdrawn" })]);
  });

  test("returns 409 INVALID_STATE for an essential topic", async () => {
    const { member } = await fixture();
    await api.call("POST", "/api/v1/me/agreements", { token: member.token, json: { agreements: all } });
    expectProblem(
      await api.call("POST", "/api/v1/me/agreements/withdraw", { token: member.token, json: { scope: "tenant", topic: "T_PRIVACY" } }),
      409,
      "INVALID_STATE",
    );
  });

  test("returns 404 without an effective record, and for an unknown topic", async () => {
    const { member } = await fixture();
    expectProblem(
      await api.call("POST", "/api/v1/me/agreements/withdraw", { token: member.token, json: { scope: "tenant", topic: "T_NEWS" } }),
      404,
      "NOT_FOUND",
    );
    await api.call("POST", "/api/v1/me/agreements", { token: member.token, json: { agreements: all } });
    await api.call("POST", "/api/v1/me/agreements/withdraw", { token: member.token, json: { scope: "tenant", topic: "T_NEWS" } });
    expectProblem(
      await api.call("POST", "/api/v1/me/agreements/withdraw", { token: member.token, json: { scope: "tenant", topic: "T_NEWS" } }),
      404,
      "NOT_FOUND",
    );
    expectProblem(
      await api.call("POST", "/api/v1/me/agreements/withdraw", { token: member.token, json: { scope: "tenant", topic: "NOPE" } }),
      404,
      "NOT_FOUND",
    );
  });

  test.each([
    [{ topic: "T_NEWS" }, "scope"],
    [{ scope: "x", topic: "T_NEWS" }, "scope"],
    [{ scope: "tenant" }, "topic"],
    [{ scope: "tenant", topic: "" }, "topic"],
  ])("returns 400 for %j", async (json, field) => {
    const { member } = await fixture();
    const body = expectProblem(
      await api.call("POST", "/api/v1/me/agreements/withdraw", { token: member.token, json }),
      400,
      "VALIDATION_FAILED",
    );
    expect(body.errors[0].field).toBe(field);
  });

  test("returns 401 without a token", async () => {
    expectProblem(
      await api.call("POST", "/api/v1/me/agreements/withdraw", { json: { scope: "tenant", topic: "X" } }),
      401,
      "UNAUTHENTICATED",
    );
  });
});

describe("GET /api/v1/public/agreements — listDisplayAgreements", () => {
  test("without tenantKey lists the platform's active terms only", async () => {
    const res = await api.call("GET", "/api/v1/public/agreements");
    expect(res.status).toBe(200);
    expect(res.body.tenantAgreements).toEqual([]);
    expect(res.body.platformAgreements.map((a: { topic: string }) => a.topic)).toEqual(["P_TOS", "P_MARKETING"]);
    expect(res.body.platformAgreements[0]).not.toHaveProperty("reason");
  });

  test("with tenantKey adds that tenant's active terms", async () => {
    const { tenant, owner } = await fixture();
    await api.call("PATCH", "/api/v1/terms/T_NEWS", { token: owner, json: { isActive: false } });
    const res = await api.call("GET", `/api/v1/public/agreements?tenantKey=${tenant.tenantKey}`);
    expect(res.body.tenantAgreements).toEqual([
      {
        scope: "tenant",
        topic: "T_PRIVACY",
        version: 1,
        isEssential: true,
        isVisible: true,
        order: 1,
        title: { ko: "개인", en: "Privacy" },
        documentUrl: { ko: "", en: "" },
      },
    ]);
  });

  test("returns 404 for an unknown tenantKey and 400 for an empty one", async () => {
    expectProblem(await api.call("GET", "/api/v1/public/agreements?tenantKey=no-such-tenant"), 404, "NOT_FOUND");
    expect(expectProblem(await api.call("GET", "/api/v1/public/agreements?tenantKey="), 400, "VALIDATION_FAILED").errors[0].field).toBe(
      "tenantKey",
    );
  });
});

describe("learnspace platform-terms — server flags", () => {
  test("ignores --data-dir among its options", () => {
    const dir = api.server.dataDir;
    expect(cli("update", "P_TMP", "--data-dir", dir, "--order", "5").code).toBe(0);
    expect(cli("set-current", "P_TMP", "--data-dir", dir, "1").code).toBe(0);
    expect(cli("list", `--data-dir=${dir}`).code).toBe(0);
  });
});
