import { and, asc, count, eq, isNotNull } from "drizzle-orm";
import { cachedByTables } from "../../platform/db/sqlite";
import type { TenantHandle } from "../../platform/db/tenant-store";
import type { Db } from "../../platform/db/types";
import { members, profiles } from "../../schema/members";
import { roles } from "../../schema/roles";

export type ProvedEmail = { memberId: string; email: string };

const PROVED_EMAILS = { name: "proved_emails", tables: ["members"] } as const;

/** Every member e-mail of a tenant file: the source the platform directory is rebuilt from. */
export function memberEmails(db: Db): { memberId: string; email: string }[] {
  return db.select({ memberId: members.id, email: members.email }).from(members).where(isNotNull(members.email)).all() as {
    memberId: string;
    email: string;
  }[];
}

/**
 * The e-mails that count across schools: active members whose e-mail is proved
 * (docs/rules/trust.md#e-mails-an-administrator-typed); what a cluster's e-mail directory publishes.
 */
function provedMemberEmails(db: Db): ProvedEmail[] {
  return db
    .select({ memberId: members.id, email: members.email })
    .from(members)
    .where(and(isNotNull(members.email), isNotNull(members.emailVerifiedAt), eq(members.isActive, true)))
    .all() as ProvedEmail[];
}

/**
 * provedMemberEmails of an open tenant file, kept on its handle until a write to `members`
 * (docs/rules/cluster.md#e-mail-directory): the same array, unread, while no member changed (an
 * exam's writes leave it), so the directory's publisher can tell "nothing to publish" by identity.
 */
export function cachedProvedMemberEmails(handle: TenantHandle): readonly ProvedEmail[] {
  return cachedByTables(handle.db, PROVED_EMAILS, "all", () => provedMemberEmails(handle.db));
}

/** The e-mail of the tenant's first owner (the platform registry's ownerEmail), or null. */
export function ownerEmailOf(db: Db): string | null {
  const row = db
    .select({ email: members.email })
    .from(members)
    .innerJoin(roles, eq(roles.id, members.roleId))
    .where(and(eq(roles.key, "owner"), isNotNull(members.email)))
    .orderBy(asc(members.createdAt))
    .limit(1)
    .get();
  return row?.email ?? null;
}

/** How many members the tenant has (tenant list). */
export function memberCount(db: Db): number {
  return db.select({ n: count() }).from(members).get()?.n ?? 0;
}

/** The profile ids of the members with this e-mail, as a subquery (the e-mail checks of quizzes and surveys). */
export function profilesWithEmail(db: Db, email: string) {
  return db
    .select({ id: profiles.id })
    .from(profiles)
    .innerJoin(members, eq(members.id, profiles.memberId))
    .where(eq(members.email, email.toLowerCase()));
}
