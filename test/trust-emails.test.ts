// E-mails an administrator typed are unproved (docs/rules/trust.md#e-mails-an-administrator-typed):
// a hostile tenant's owner who types a teacher's address must not take over the teacher's keyless
// sign-in, become the teacher's "owned" tenant, or learn the teacher's school from a sign-in result.
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { tenantSettings } from "../src/modules/tenant/tables";
import { fresh } from "./helpers/auth";
import { createTenantFixture, expectProblem, useServer } from "./helpers/server";

const api = useServer({ devCodes: true });
const post = (path: string, json: unknown, token?: string) => api.call("POST", `/api/v1${path}`, { json, token });
// Each test hashes several passwords (argon2id) on a shared machine.
const SLOW = 30_000;
const keysOf = (body: { tenants: { key: string }[] }) => body.tenants.map((t) => t.key).sort();

/** A code sign-in into `tenantKey` (the tenant's own code to the address): proves the e-mail there. */
async function codeSignIn(tenantKey: string, email: string) {
  const sent = await post(`/public/tenants/${tenantKey}/auth/request-code`, { email });
  expect(sent.status).toBe(200);
  const res = await post("/auth/sign-in/code", { email, code: sent.body.devCode, tenantKey });
  expect(res.status).toBe(200);
  return res;
}

/** The token of the last invitation mailed to `email` (the outbox of dev mail). */
function invitationToken(email: string): string {
  const dir = join(api.server.dataDir, "outbox");
  const mails = readdirSync(dir)
    .sort()
    .map((f) => JSON.parse(readFileSync(join(dir, f), "utf8")));
  const m = mails
    .filter((x) => x.to === email)
    .at(-1)
    ?.text.match(/[?&]token=([^\s&]+)/);
  if (!m) throw new Error(`no invitation mail to ${email}`);
  return decodeURIComponent(m[1]);
}

/** A member an administrator creates over HTTP, with a typed e-mail and a password. */
async function typedMember(owner: { token: string }, email: string, password = "Passw0rd!") {
  const res = await post("/members", { displayName: "Typed", email, password }, owner.token);
  expect(res.status).toBe(201);
  return res.body.member as { id: string };
}

describe("a hostile tenant types a teacher's e-mail", () => {
  test(
    "its owner's own e-mail set to the teacher's: the teacher's keyless sign-in still opens the school, which stays the only tenant listed",
    async () => {
      const school = await createTenantFixture(api.server);
      const teacherEmail = fresh("teacher").email;
      await typedMember(school, teacherEmail, "Teacher0!");
      // The teacher proves the address once (a code to it); from then on keyless sign-in finds the school.
      await codeSignIn(school.tenantKey, teacherEmail);
      const before = await post("/auth/sign-in/password", { identifier: teacherEmail, password: "Teacher0!" });
      expect(before.status).toBe(200);
      expect(before.body.user.tenantKey).toBe(school.tenantKey);

      const hostile = await createTenantFixture(api.server);
      const changed = await api.call("PATCH", `/api/v1/members/${hostile.memberId}`, {
        token: hostile.token,
        json: { email: teacherEmail },
      });
      expect(changed.status).toBe(200);

      const after = await post("/auth/sign-in/password", { identifier: teacherEmail, password: "Teacher0!" });
      expect(after.status).toBe(200);
      expect(after.body.user.tenantKey).toBe(school.tenantKey);
      expect(keysOf(after.body)).toEqual([school.tenantKey]);
      expect(after.body.hasOwnedTenant).toBe(false);

      // The platform code flow lists the same: the hostile tenant is nobody's tenant of this e-mail.
      const sent = await post("/auth/sign-in/request-code", { email: teacherEmail });
      const checked = await post("/auth/sign-in/check-code", { email: teacherEmail, code: sent.body.devCode });
      expect(checked.status).toBe(200);
      expect(checked.body.tenants.map((t: { key: string }) => t.key)).toEqual([school.tenantKey]);
      expect(checked.body.hasOwnedTenant).toBe(false);
    },
    SLOW,
  );

  test(
    "signing into the hostile tenant with the typed address lists that tenant alone: the teacher's school does not leak",
    async () => {
      const school = await createTenantFixture(api.server);
      const teacherEmail = fresh("teacher").email;
      await typedMember(school, teacherEmail);
      await codeSignIn(school.tenantKey, teacherEmail);

      const hostile = await createTenantFixture(api.server);
      await api.call("PATCH", `/api/v1/members/${hostile.memberId}`, { token: hostile.token, json: { email: teacherEmail } });
      const asOwner = await post("/auth/sign-in/password", {
        identifier: teacherEmail,
        password: hostile.password,
        tenantKey: hostile.tenantKey,
      });
      expect(asOwner.status).toBe(200);
      expect(asOwner.body.tenants).toEqual([{ key: hostile.tenantKey, name: hostile.tenantName, kind: "member", logoImageUrl: null }]);
      expect(asOwner.body.hasOwnedTenant).toBe(false);

      // A member the hostile owner creates with the address (createMember, createMembers) leaks nothing either.
      const probeEmail = fresh("probe").email;
      const probed = await createTenantFixture(api.server);
      await typedMember(probed, probeEmail);
      await codeSignIn(probed.tenantKey, probeEmail);
      const bulk = await post(
        "/members/bulk-create",
        { members: [{ displayName: "Probe", email: probeEmail, password: "Probe000!", roleKey: "member" }] },
        hostile.token,
      );
      expect(bulk.status).toBe(201);
      expect(bulk.body.failed).toEqual([]);
      expect(bulk.body.created).toHaveLength(1);
      const probe = await post("/auth/sign-in/password", { identifier: probeEmail, password: "Probe000!", tenantKey: hostile.tenantKey });
      expect(probe.status).toBe(200);
      expect(keysOf(probe.body)).toEqual([hostile.tenantKey]);
    },
    SLOW,
  );

  test(
    "the address counts for a tenant once its owner proves it there with a code, and is unproved again when an administrator changes it",
    async () => {
      const a = await createTenantFixture(api.server);
      const b = await createTenantFixture(api.server);
      const email = fresh("both").email;
      const inA = await typedMember(a, email);
      await typedMember(b, email);
      // Typed in both, proved in neither: keyless sign-in knows no tenant of it.
      expectProblem(await post("/auth/sign-in/password", { identifier: email, password: "Passw0rd!" }), 401, "INVALID_CREDENTIALS");
      const intoA = await codeSignIn(a.tenantKey, email);
      expect(keysOf(intoA.body)).toEqual([a.tenantKey]);
      expect((await post("/auth/sign-in/password", { identifier: email, password: "Passw0rd!" })).body.user.tenantKey).toBe(a.tenantKey);
      const intoB = await codeSignIn(b.tenantKey, email);
      expect(keysOf(intoB.body)).toEqual([a.tenantKey, b.tenantKey].sort());
      expectProblem(await post("/auth/sign-in/password", { identifier: email, password: "Passw0rd!" }), 400, "TENANT_REQUIRED");

      // An administrator retypes the address (away and back): proved no longer.
      const other = fresh("other").email;
      for (const next of [other, email]) {
        const res = await api.call("PATCH", `/api/v1/members/${inA.id}`, { token: a.token, json: { email: next } });
        expect(res.status).toBe(200);
      }
      const only = await post("/auth/sign-in/password", { identifier: email, password: "Passw0rd!" });
      expect(only.status).toBe(200);
      expect(only.body.user.tenantKey).toBe(b.tenantKey);
      expect(keysOf(only.body)).toEqual([b.tenantKey]);
    },
    SLOW,
  );

  test(
    "an accepted invitation proves the address (its link was mailed to it)",
    async () => {
      const t = await createTenantFixture(api.server);
      const email = fresh("invited").email;
      expect((await post("/invitations", { emails: [email] }, t.token)).status).toBe(201);
      const accepted = await post(`/public/invitations/${encodeURIComponent(invitationToken(email))}/accept`, {
        displayName: "Invited",
        password: "Passw0rd!",
      });
      expect(accepted.status).toBe(201);
      const res = await post("/auth/sign-in/password", { identifier: email, password: "Passw0rd!" });
      expect(res.status).toBe(200);
      expect(res.body.user.tenantKey).toBe(t.tenantKey);
    },
    SLOW,
  );

  test(
    "joinTenant proves the address (a tenant code): the joined tenant counts, one that only typed it does not",
    async () => {
      const hostile = await createTenantFixture(api.server);
      const school = await createTenantFixture(api.server);
      api.server.rt.tenants.use(school.tenantId, (h) => h.db.update(tenantSettings).set({ allowUserSelfSignUp: true }).run());
      const email = fresh("joiner").email;
      await typedMember(hostile, email);
      const sent = await post(`/public/tenants/${school.tenantKey}/auth/request-code`, { email });
      const joined = await post(`/public/tenants/${school.tenantKey}/auth/join`, {
        email,
        code: sent.body.devCode,
        password: "Joiner00!",
        displayName: "Joiner",
      });
      expect(joined.status).toBe(201);
      expect(keysOf(joined.body)).toEqual([school.tenantKey]);
      const keyless = await post("/auth/sign-in/password", { identifier: email, password: "Joiner00!" });
      expect(keyless.status).toBe(200);
      expect(keyless.body.user.tenantKey).toBe(school.tenantKey);
    },
    SLOW,
  );
});
