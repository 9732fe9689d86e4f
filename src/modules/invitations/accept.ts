import { eq } from "drizzle-orm";
import type { Static } from "elysia";
import { hashPassword } from "../../platform/auth/password";
import { indexMember, tenantById } from "../../platform/db/registry";
import { type Db, write } from "../../platform/db/types";
import { conflict, notFound } from "../../platform/http/errors";
import type { Runtime } from "../../platform/runtime";
import { members } from "../../schema/members";
import { roles } from "../../schema/roles";
import { insertMember } from "../members/create";
import type { AcceptInvitationBody } from "./model";
import { statusOf, tokenHash } from "./service";
import { invitations } from "./tables";

type Input = Static<typeof AcceptInvitationBody>;

/** Every rule of an accept that the tenant file decides: 404, then 409 INVALID_STATE, then 409 ALREADY_EXISTS. */
function acceptable(db: Db, hash: string, input: Input, now: number) {
  const inv = db.select().from(invitations).where(eq(invitations.tokenHash, hash)).get();
  if (!inv) throw notFound();
  if (statusOf(inv, now) !== "pending") throw conflict("INVALID_STATE", "This invitation is no longer pending.");
  const role = db.select({ id: roles.id }).from(roles).where(eq(roles.id, inv.roleId)).get();
  if (!role) throw conflict("INVALID_STATE", "The role of this invitation no longer exists.");
  if (db.select({ id: members.id }).from(members).where(eq(members.email, inv.email)).get()) {
    throw conflict("ALREADY_EXISTS", "This e-mail is already a member.");
  }
  if (input.userId && db.select({ id: members.id }).from(members).where(eq(members.userIdKey, input.userId.toLowerCase())).get()) {
    throw conflict("ALREADY_EXISTS", "This userId is taken.");
  }
  return inv;
}

/**
 * Public: the token is `<tenantId>.<random>`, so the tenant file is found without a tenant in the
 * path. Creates the member with the invited role; does not sign in.
 */
export async function acceptInvitation(rt: Runtime, token: string, input: Input, now = Date.now()) {
  const tenantId = token.slice(0, token.indexOf("."));
  if (!/^[0-9a-f-]{36}$/.test(tenantId)) throw notFound();
  const tenant = tenantById(rt.platform.db, tenantId);
  if (!tenant) throw notFound();
  const hash = tokenHash(rt, token);
  // Refuse before paying for the password hash; the write checks again.
  rt.tenants.use(tenantId, (h) => acceptable(h.db, hash, input, now));
  const passwordHash = await hashPassword(input.password);
  const { email, memberId } = rt.tenants.use(tenantId, (h) =>
    write(h.db, (tx) => {
      const inv = acceptable(tx, hash, input, now);
      // The token was mailed to inv.email only: holding it proves the address (docs/rules/trust.md#e-mails-an-administrator-typed).
      const member = insertMember(
        tx,
        {
          displayName: input.displayName,
          email: inv.email,
          userId: input.userId ?? null,
          roleId: inv.roleId,
          passwordHash,
          emailVerifiedAt: now,
        },
        now,
      );
      tx.update(invitations)
        .set({ status: "accepted", acceptedAt: now, memberId: member.id, updatedAt: now })
        .where(eq(invitations.id, inv.id))
        .run();
      return { email: inv.email, memberId: member.id };
    }),
  );
  write(rt.platform.db, (tx) => indexMember(tx, email, tenantId, memberId));
  return { tenantKey: tenant.key, identifier: input.userId ?? email };
}
