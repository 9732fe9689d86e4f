// Seeding a school of many members for a benchmark, through the same code as sign-up and the members
// service, in the bench's own process (no HTTP for the members: 10,000 of them are one write).
//   const school = await seedSchool(rt, "exam", { members: 10_000 });        // tenant, owner token, members
//   const api = benchApi(base);                                              // JSON calls to a running server
//   const spaceId = await seedSpace(api, school.ownerToken, "Exam", school.members.map((m) => m.id));
// Members are `Student <i>` with e-mail `s<i>@<key>.test` (the member role, no user ID).
import { insertMember } from "../src/modules/members/create";
import { roleByKey } from "../src/modules/roles/builtin";
import { provisionTenant } from "../src/modules/tenant/provision";
import { openMemberSession } from "../src/platform/auth/sessions";
import { write } from "../src/platform/db/types";
import type { Runtime } from "../src/platform/runtime";

export type SeededMember = { id: string; email: string };
export type SeededSchool = { tenantId: string; key: string; ownerMemberId: string; ownerToken: string; members: SeededMember[] };

/**
 * A tenant `key` with its owner (`owner@<key>.test`, signed in) and `members` members in one write;
 * `passwordHash` (one shared hash) lets them sign in by password.
 */
export async function seedSchool(
  rt: Runtime,
  key: string,
  opts: { members: number; name?: string; passwordHash?: string | null },
): Promise<SeededSchool> {
  const passwordHash = opts.passwordHash ?? null;
  const ownerEmail = `owner@${key}.test`;
  const t = provisionTenant(rt, { key, name: opts.name ?? key, owner: { email: ownerEmail, displayName: "Owner", passwordHash } });
  const owner = await openMemberSession(rt, { email: ownerEmail, tenantId: t.tenantId, tenantKey: key, memberId: t.memberId });
  const members = rt.tenants.use(t.tenantId, (h) =>
    write(h.db, (tx) => {
      const role = roleByKey(tx, "member");
      if (!role) throw new Error("no member role");
      return Array.from({ length: opts.members }, (_, i) => {
        const email = `s${i}@${key}.test`;
        return { email, id: insertMember(tx, { displayName: `Student ${i}`, email, userId: null, roleId: role.id, passwordHash }).id };
      });
    }),
  );
  return { tenantId: t.tenantId, key, ownerMemberId: t.memberId, ownerToken: owner.accessToken, members };
}

/** An access token for each member (personal sessions, in this process). */
export async function memberTokens(rt: Runtime, school: SeededSchool): Promise<string[]> {
  const tokens: string[] = [];
  for (const m of school.members) {
    const s = await openMemberSession(rt, { email: m.email, tenantId: school.tenantId, tenantKey: school.key, memberId: m.id });
    tokens.push(s.accessToken);
  }
  return tokens;
}

export type BenchApi = <T = any>(token: string, method: string, path: string, body?: unknown) => Promise<T>;

/** JSON calls to the server at `base` (`http://127.0.0.1:<port>/api/v1`); a non-2xx answer throws with its body. */
export function benchApi(base: string): BenchApi {
  return async (token, method, path, body) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: body ? JSON.stringify(body) : undefined,
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res.json();
  };
}

/** A space named `name` with `memberIds` enrolled as participants (addSpaceMembers, 500 per call); its id. */
export async function seedSpace(api: BenchApi, ownerToken: string, name: string, memberIds: string[]): Promise<string> {
  const space = await api<{ id: string }>(ownerToken, "POST", "/spaces", { name });
  for (let i = 0; i < memberIds.length; i += 500) {
    await api(ownerToken, "POST", `/spaces/${space.id}/members`, { userIds: memberIds.slice(i, i + 500), role: "PARTICIPANT" });
  }
  return space.id;
}
