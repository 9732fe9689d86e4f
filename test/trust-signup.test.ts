// Who may create a tenant: LEARNSPACE_TENANT_SIGNUP and `learnspace tenant create` (docs/rules/trust.md#who-may-create-a-tenant).
import { describe, expect, test } from "bun:test";
import { loadConfig } from "../src/config";
import { fresh, signUpVerified } from "./helpers/auth";
import { cli, FROM_SOURCE } from "./helpers/binary";
import { expectProblem, useServer } from "./helpers/server";

const signUp = (api: ReturnType<typeof useServer>, tenant = true) => {
  const f = fresh("su");
  return api.call("POST", "/api/v1/auth/sign-up", {
    json: { email: f.email, password: "Passw0rd!", displayName: "Owner", ...(tenant ? { tenantKey: f.tenantKey } : {}) },
  });
};

describe("LEARNSPACE_TENANT_SIGNUP=first (the default)", () => {
  const api = useServer({ devCodes: true }, { LEARNSPACE_TENANT_SIGNUP: "first" });

  test("the first sign-up makes the school's tenant; a second one is 403 saying tenant sign-up is closed", async () => {
    expect(loadConfig([], {}).tenantSignup).toBe("first");
    const first = await signUpVerified(api);
    expect(first.res.body.tenant?.key ?? first.tenantKey).toBe(first.tenantKey);
    const second = await signUp(api);
    const p = expectProblem(second, 403, "FORBIDDEN");
    expect(p.detail).toContain("sign-up is closed");
    // Nothing was written: the e-mail can still make a platform account.
    expect((await signUp(api, false)).status).toBe(201);
  });
});

describe("LEARNSPACE_TENANT_SIGNUP=closed", () => {
  const api = useServer({ devCodes: true }, { LEARNSPACE_TENANT_SIGNUP: "closed" });

  test("no sign-up makes a tenant, even on an empty server; a platform-only sign-up still works", async () => {
    expectProblem(await signUp(api), 403, "FORBIDDEN");
    expect((await signUp(api, false)).status).toBe(201);
  });

  test("learnspace tenant create makes one and mails the owner a link that sets the password", async () => {
    // Its own process beside the running server, as an operator runs it: in this process its
    // synchronous writes would wait on the server's, which wait for this thread (database is locked).
    const env = { LEARNSPACE_DATA_DIR: api.server.dataDir, LEARNSPACE_DEV_CODES: "1" };
    const create = (key: string, email: string) =>
      cli(["tenant", "create", key, "--name", "North School", "--owner-email", email], env, FROM_SOURCE);
    const made = create("north-school", "Head@North.example");
    expect(made.stderr).toBe("");
    expect(made.code).toBe(0);
    const link = made.stdout.split("\n").find((l) => l.includes("/invitation?token="));
    expect(link).toBeDefined();
    const token = new URL(link as string).searchParams.get("token") as string;
    const accepted = await api.call("POST", `/api/v1/public/invitations/${encodeURIComponent(token)}/accept`, {
      json: { displayName: "Head", password: "Str0ngPass!" },
    });
    expect(accepted.status).toBe(201);
    const signIn = await api.call("POST", "/api/v1/auth/sign-in/password", {
      json: { tenantKey: "north-school", identifier: "head@north.example", password: "Str0ngPass!" },
    });
    expect(signIn.status).toBe(200);
    expect(signIn.body.user.permissions).toContain("tenant-settings:manage");
    // A key that exists is refused.
    const again = create("north-school", "x@north.example");
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain("exists");
  });
});
