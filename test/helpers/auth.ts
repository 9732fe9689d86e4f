import type { useServer } from "./server";

type Client = Pick<ReturnType<typeof useServer>, "call">;
let n = 0;

/** A unique e-mail and tenant key per call, so tests of one file do not collide. */
export function fresh(prefix = "u") {
  n++;
  const id = `${prefix}${n}-${Math.random().toString(36).slice(2, 7)}`;
  return { email: `${id}@example.com`, tenantKey: id.toLowerCase() };
}

/** The `lsp_session=…` pair of a response's Set-Cookie (for the Cookie header of the next call). */
export const cookieOf = (res: { headers: Headers }) => (res.headers.get("set-cookie") ?? "").split(";")[0] as string;

/** Signs up (with a tenant unless `tenantKey: null`) and verifies the dev code; returns the AuthResult response. */
export async function signUpVerified(
  s: Client,
  opts: { email?: string; tenantKey?: string | null; password?: string; sessionType?: string } = {},
) {
  const f = fresh();
  const email = opts.email ?? f.email;
  const tenantKey = opts.tenantKey === null ? undefined : (opts.tenantKey ?? f.tenantKey);
  const password = opts.password ?? "Passw0rd!";
  const up = await s.call("POST", "/api/v1/auth/sign-up", {
    json: { email, password, displayName: "Owner One", ...(tenantKey ? { tenantKey, tenantName: `Tenant ${tenantKey}` } : {}) },
  });
  if (up.status !== 201) throw new Error(`sign-up failed: ${up.status} ${JSON.stringify(up.body)}`);
  const res = await s.call("POST", "/api/v1/auth/sign-up/verify", {
    json: { email, code: up.body.devCode, ...(opts.sessionType ? { sessionType: opts.sessionType } : {}) },
  });
  if (res.status !== 200) throw new Error(`verify failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { email, tenantKey, password, res, token: res.body.accessToken as string, cookie: cookieOf(res) };
}
