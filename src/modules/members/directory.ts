import { eq, isNotNull } from "drizzle-orm";
import type { Db } from "../../platform/db/types";
import { members, profiles } from "../../schema/members";

/** Every member e-mail of a tenant file: the source the platform directory is rebuilt from. */
export function memberEmails(db: Db): { memberId: string; email: string }[] {
  return db.select({ memberId: members.id, email: members.email }).from(members).where(isNotNull(members.email)).all() as {
    memberId: string;
    email: string;
  }[];
}

/** The profile ids of the members with this e-mail, as a subquery (the e-mail checks of quizzes and surveys). */
export function profilesWithEmail(db: Db, email: string) {
  return db
    .select({ id: profiles.id })
    .from(profiles)
    .innerJoin(members, eq(members.id, profiles.memberId))
    .where(eq(members.email, email.toLowerCase()));
}
