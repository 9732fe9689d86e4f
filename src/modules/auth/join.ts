import { eq } from "drizzle-orm";
import type { Static } from "elysia";
import { hashPassword } from "../../platform/auth/password";
import { indexMember } from "../../platform/db/registry";
import { write } from "../../platform/db/types";
import { conflict, forbidden, notFound } from "../../platform/http/errors";
import type { Runtime } from "../../platform/runtime";
import { members } from "../../schema/members";
import { findUsableJoinCode } from "../join-codes/lookup";
import { insertMember } from "../members/create";
import { roleByKey } from "../roles/builtin";
import { readSettings } from "../tenant/service";
import { type CodeKey, checkCode, consumeCode, invalidCode, issueCode } from "./codes";
import { memberByEmail, normEmail, tenantOfKey, verifiedAccountId } from "./identity";
import type { JoinTenantBody } from "./model";
import { allowedLoginMethods } from "./providers";
import { startSession } from "./session";

function tenantOrNotFound(rt: Runtime, key: string) {
  const tenant = tenantOfKey(rt, key);
  if (!tenant) throw notFound();
  return tenant;
}

/** requestTenantCode: a code for this tenant to any e-mail (it proves the address, for joinTenant or signInWithCode). */
export function requestTenantCode(rt: Runtime, tenantKey: string, rawEmail: string) {
  const tenant = tenantOrNotFound(rt, tenantKey);
  return issueCode(rt, { email: normEmail(rawEmail), purpose: "tenant", scope: tenant.id }, { deliver: true, tenantName: tenant.name });
}

/**
 * joinTenant (self sign-up, when the tenant allows it) and joinTenantWithJoinCode (a usable join
 * code admits the e-mail even when self sign-up is off; neither while the tenant allows only SSO,
 * 403 SSO_ONLY as for code sign-in): the tenant code proves the e-mail; a
 * `member` is created in the tenant file, then indexed in the directory, and signed in.
 */
export async function joinTenant(
  rt: Runtime,
  tenantKey: string,
  input: Static<typeof JoinTenantBody> & { joinCode?: string },
  now = Date.now(),
) {
  const tenant = tenantOrNotFound(rt, tenantKey);
  const email = normEmail(input.email);
  const gate = rt.tenants.use(tenant.id, (h) => {
    if (allowedLoginMethods(h) === "SSO_ONLY") return "sso-only";
    if (input.joinCode !== undefined) return findUsableJoinCode(h.db, input.joinCode, now) ? "ok" : "bad-join-code";
    return readSettings(h.db).allowUserSelfSignUp ? "ok" : "closed";
  });
  if (gate === "sso-only") throw forbidden("SSO_ONLY", "This tenant allows only single sign-on.");
  if (gate === "closed") throw forbidden("FORBIDDEN", "This tenant does not allow self sign-up.");
  if (gate === "bad-join-code") throw invalidCode([{ in: "body", field: "joinCode", message: "is unknown, disabled or expired" }]);
  const key: CodeKey = { email, purpose: "tenant", scope: tenant.id };
  checkCode(rt, [key], input.code, false, now);
  const passwordHash = await hashPassword(input.password);
  const userIdKey = input.userId?.toLowerCase();
  const created = rt.tenants.use(tenant.id, (h) =>
    write(h.db, (tx) => {
      if (memberByEmail(tx, email)) return null;
      if (userIdKey && tx.select({ id: members.id }).from(members).where(eq(members.userIdKey, userIdKey)).get()) return null;
      const role = roleByKey(tx, "member");
      if (!role) throw new Error("member role missing");
      // The tenant code proved the e-mail.
      const proved = { emailVerifiedAt: now };
      return insertMember(
        tx,
        { displayName: input.displayName, email, userId: input.userId ?? null, roleId: role.id, passwordHash, ...proved },
        now,
      );
    }),
  );
  if (!created) throw conflict("ALREADY_EXISTS", "This e-mail or userId is already a member of this tenant.");
  write(rt.platform.db, (tx) => indexMember(tx, email, tenant.id, created.id));
  consumeCode(rt, key);
  const accountId = verifiedAccountId(rt.platform.db, email);
  return startSession(rt, { tenant, memberId: created.id, email, accountId }, input.sessionType, now);
}
