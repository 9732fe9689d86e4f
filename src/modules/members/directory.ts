import { isNotNull } from "drizzle-orm";
import type { Db } from "../../platform/db/types";
import { members } from "../../schema/members";

/** Every member e-mail of a tenant file: the source the platform directory is rebuilt from. */
export function memberEmails(db: Db): { memberId: string; email: string }[] {
  return db.select({ memberId: members.id, email: members.email }).from(members).where(isNotNull(members.email)).all() as {
    memberId: string;
    email: string;
  }[];
}
