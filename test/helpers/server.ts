import { afterAll, beforeAll, expect } from "bun:test";
import { appendFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Config, loadConfig } from "../../src/config";
import { insertMember } from "../../src/modules/members/create";
import { roleByKey } from "../../src/modules/roles/builtin";
import { provisionTenant } from "../../src/modules/tenant/provision";
import { openMemberSession } from "../../src/platform/auth/sessions";
import { indexMember } from "../../src/platform/db/registry";
import { write } from "../../src/platform/db/types";
import { roles } from "../../src/schema/roles";
import { startServer } from "../../src/server";

export type TestServer = ReturnType<typeof startServer> & { dataDir: string };

export type CallOptions = { json?: unknown; token?: string; headers?: Record<string, string>; body?: string | Uint8Array | Blob | null };

/** fetch against a server at `baseUrl`; `json` is sent as the JSON body, `token` as the bearer token. */
export async function callAt(baseUrl: string, method: string, path: string, opts: CallOptions = {}) {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.json !== undefined) headers["content-type"] = "application/json";
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers,
    body: (opts.json !== undefined ? JSON.stringify(opts.json) : opts.body) as any,
    redirect: "manual",
  });
  const text = await res.text();
  let body: any = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = text;
  }
  if (RECORD) record(method, path, opts.json, res, body);
  return { status: res.status, headers: res.headers, body };
}

/** `LEARNSPACE_RECORD_EXAMPLES=<file>`: every call is appended there for `scripts/api-examples.ts` (docs/rules/api-reference.md#examples). */
const RECORD = process.env.LEARNSPACE_RECORD_EXAMPLES;

function record(method: string, path: string, request: unknown, res: Response, response: unknown) {
  const line = { method, path: path.split("?")[0], request, status: res.status, type: res.headers.get("content-type"), response };
  appendFileSync(RECORD as string, `${JSON.stringify(line)}\n`);
}

/**
 * Starts the real server on an ephemeral port with a fresh temporary data directory for this test
 * file, and removes both after the file's tests.
 */
export function useServer(overrides: Partial<Config> = {}, env: Record<string, string> = {}) {
  const ref = {} as { server: TestServer };
  beforeAll(() => {
    const dataDir = mkdtempSync(join(tmpdir(), "learnspace-test-"));
    const config = loadConfig(
      [],
      { LEARNSPACE_IP_RATE_LIMIT: "0", LEARNSPACE_QUIET: "1", LEARNSPACE_TENANT_SIGNUP: "open", ...env },
      { port: 0, dataDir, ...overrides },
    );
    ref.server = Object.assign(startServer(config), { dataDir });
  });
  afterAll(async () => {
    await ref.server.stop();
    rmSync(ref.server.dataDir, { recursive: true, force: true });
  });
  const api = {
    get server() {
      return ref.server;
    },
    get url() {
      return ref.server.url;
    },
    /** fetch against the server; `json` is sent as the JSON body, `token` as the bearer token. */
    call: (method: string, path: string, opts: CallOptions = {}) => callAt(ref.server.url, method, path, opts),
    /** The API (`/api/v1` prefix) as one caller: POST sends `{}` when no body is given, PUT sends none. */
    as(who: { token: string }) {
      const call = (method: string, path: string, json?: unknown) =>
        api.call(method, `/api/v1${path}`, { token: who.token, ...(json === undefined ? {} : { json }) });
      return {
        get: (path: string) => call("GET", path),
        post: (path: string, json?: unknown) => call("POST", path, json ?? {}),
        patch: (path: string, json: unknown) => call("PATCH", path, json),
        put: (path: string, json?: unknown) => call("PUT", path, json),
        del: (path: string) => call("DELETE", path),
      };
    },
    /** The API without a token. */
    anon(method: string, path: string, json?: unknown) {
      return api.call(method, `/api/v1${path}`, json === undefined ? {} : { json });
    },
  };
  return api;
}

let counter = 0;
/** Every fixture owner and member has the same password: hashed once per test file, not once per member. */
let fixtureHash: Promise<string> | undefined;

/**
 * A fixture tenant with its owner signed in, created through the same provisioning code as sign-up.
 * Returns the owner's access token.
 */
export async function createTenantFixture(server: TestServer, opts: { key?: string; name?: string; email?: string } = {}) {
  counter++;
  const key = opts.key ?? `t${counter}-${Math.random().toString(36).slice(2, 8)}`;
  const email = opts.email ?? `owner-${key}@example.com`;
  const rt = server.rt;
  fixtureHash ??= Bun.password.hash("Passw0rd!", { algorithm: "argon2id", memoryCost: 19456, timeCost: 2 });
  const passwordHash = await fixtureHash;
  // A fixture's e-mails count as proved (as after a code sign-in); test/trust-emails.test.ts types them over HTTP.
  const owner = { email, displayName: "Owner", passwordHash, emailVerifiedAt: Date.now() };
  const t = provisionTenant(rt, { key, name: opts.name ?? `Tenant ${key}`, owner });
  const session = await openMemberSession(rt, { email, tenantId: t.tenantId, tenantKey: key, memberId: t.memberId });
  return { ...t, email, password: "Passw0rd!", token: session.accessToken, sessionId: session.sessionId };
}

/** Asserts the problem+json shape and returns the body. */
export type Res = { status: number; headers: Headers; body: any };

/** An ISO 8601 UTC timestamp with milliseconds, as every record shows. */
export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** The fields named by a 400 VALIDATION_FAILED, in order. */
export const fieldsOf = (res: Res) => expectProblem(res, 400, "VALIDATION_FAILED").errors.map((e: any) => e.field) as string[];
export const fieldOf = (res: Res) => fieldsOf(res)[0];
export const unauth = (res: Res) => expectProblem(res, 401, "UNAUTHENTICATED");
export const forbidden = (res: Res) => expectProblem(res, 403, "FORBIDDEN");
export const notFound = (res: Res) => expectProblem(res, 404, "NOT_FOUND");
export const invalidState = (res: Res) => expectProblem(res, 409, "INVALID_STATE");

export function expectProblem(res: { status: number; headers: Headers; body: any }, status: number, code: string) {
  if (res.status !== status || res.body?.code !== code) {
    throw new Error(`expected ${status} ${code}, got ${res.status} ${JSON.stringify(res.body)}`);
  }
  if (!res.headers.get("content-type")?.startsWith("application/problem+json")) {
    throw new Error(`expected application/problem+json, got ${res.headers.get("content-type")}`);
  }
  return res.body;
}

/**
 * A second member of a fixture tenant with the given role (default `member`, no permissions), signed
 * in. `permissions` creates a custom role holding exactly those codes.
 */
export async function createMemberFixture(
  server: TestServer,
  tenant: { tenantId: string; tenantKey: string },
  opts: { email?: string; displayName?: string; roleKey?: string; permissions?: string[]; userId?: string } = {},
) {
  counter++;
  const rt = server.rt;
  const email = opts.email ?? `member${counter}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  fixtureHash ??= Bun.password.hash("Passw0rd!", { algorithm: "argon2id", memoryCost: 19456, timeCost: 2 });
  const passwordHash = await fixtureHash;
  const member = rt.tenants.use(tenant.tenantId, (h) =>
    write(h.db, (tx) => {
      let role = roleByKey(tx, opts.roleKey ?? "member");
      if (opts.permissions) {
        const key = `fixture-role-${counter}`;
        tx.insert(roles)
          .values({ id: Bun.randomUUIDv7(), key, name: key, isBuiltin: false, permissions: opts.permissions, createdAt: Date.now() })
          .run();
        role = roleByKey(tx, key);
      }
      if (!role) throw new Error(`no role ${opts.roleKey}`);
      return insertMember(tx, {
        displayName: opts.displayName ?? "Member",
        email,
        userId: opts.userId ?? null,
        roleId: role.id,
        passwordHash,
        emailVerifiedAt: Date.now(),
      });
    }),
  );
  write(rt.platform.db, (tx) => indexMember(tx, email, tenant.tenantId, member.id));
  const session = await openMemberSession(rt, { email, tenantId: tenant.tenantId, tenantKey: tenant.tenantKey, memberId: member.id });
  return { memberId: member.id, profileId: member.profileId, email, password: "Passw0rd!", token: session.accessToken };
}

/**
 * A tenant set up for content tests: its owner (author, ADMIN of the space), a second ADMIN, the
 * PARTICIPANTs named (enrolled in that order), an outsider enrolled nowhere, a folder of the space;
 * and another tenant.
 */
export async function createContentSpace<const N extends readonly string[]>(
  api: ReturnType<typeof useServer>,
  opts: { spaceName: string; participants: N },
) {
  const owner = await createTenantFixture(api.server);
  const other = await createTenantFixture(api.server);
  const admin2 = await createMemberFixture(api.server, owner, { displayName: "Admin Two" });
  const participants: Member[] = [];
  for (const displayName of opts.participants) participants.push(await createMemberFixture(api.server, owner, { displayName }));
  const outsider = await createMemberFixture(api.server, owner, { displayName: "Outsider" });
  const ok = <T extends { status: number; body: any }>(res: T, status: number) => {
    if (res.status !== status) throw new Error(`fixture: expected ${status}, got ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const as = api.as(owner);
  const spaceId = ok(await as.post("/spaces", { name: opts.spaceName }), 201).id as string;
  const enrol = [
    [participants.map((p) => p.memberId), "PARTICIPANT"],
    [[admin2.memberId], "ADMIN"],
  ] as const;
  for (const [userIds, role] of enrol) ok(await as.post(`/spaces/${spaceId}/members`, { userIds, role }), 200);
  const nodeId = ok(await as.post("/library/nodes", { title: "Folder", spaceId }), 201).id as string;
  return { owner, other, admin2, participants: participants as { [K in keyof N]: Member }, outsider, spaceId, nodeId };
}

type Member = Awaited<ReturnType<typeof createMemberFixture>>;

/**
 * Waits (bounded, 5 s by default) until `check` holds — for what a server does after its response
 * (log lines, mail, released handles, background jobs) — then asserts it, so a timeout fails clearly.
 */
export async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check()) && Date.now() < until) await Bun.sleep(10);
  expect(await check()).toBe(true);
}

/**
 * A submissions list (`path`, read with `get`) once no row's similarity check is PENDING any more,
 * as a map from submission id to its similarity. A bounded wait (10 s), not a timing assertion: the
 * check runs after the response by design, and its reads would otherwise mix into what a test counts.
 */
export async function untilSimilaritySettled(
  get: (path: string) => Promise<{ status: number; body: any }>,
  path: string,
): Promise<Map<string, any>> {
  for (let i = 0; i < 200; i++) {
    const res = await get(path);
    expect(res.status).toBe(200);
    const rows = res.body.submissions as any[];
    if (rows.every((s) => s.similarity.status !== "PENDING")) return new Map(rows.map((s) => [s.id as string, s.similarity]));
    await Bun.sleep(50);
  }
  throw new Error(`similarity checks still PENDING after 10 s: ${path}`);
}
