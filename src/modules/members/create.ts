import type { Db } from "../../platform/db/types";
import { members, profiles } from "../../schema/members";

export type NewMember = {
  displayName: string;
  email?: string | null;
  userId?: string | null;
  roleId: string;
  passwordHash?: string | null;
  isIssuedAccount?: boolean;
  mustChangePassword?: boolean;
  /** When the e-mail was proved; absent = typed by an administrator, unverified (docs/rules/trust.md#e-mails-an-administrator-typed). */
  emailVerifiedAt?: number | null;
};

/** Inserts a member and its main learning profile. Uniqueness is the caller's check (409). */
export function insertMember(db: Db, input: NewMember, now = Date.now()) {
  const id = Bun.randomUUIDv7();
  const profileId = Bun.randomUUIDv7();
  const row = db
    .insert(members)
    .values({
      id,
      displayName: input.displayName,
      email: input.email ? input.email.toLowerCase() : null,
      emailVerifiedAt: input.email ? (input.emailVerifiedAt ?? null) : null,
      userId: input.userId ?? null,
      userIdKey: input.userId ? input.userId.toLowerCase() : null,
      roleId: input.roleId,
      passwordHash: input.passwordHash ?? null,
      isIssuedAccount: input.isIssuedAccount ?? false,
      mustChangePassword: input.mustChangePassword ?? false,
      createdAt: now,
      updatedAt: now,
    })
    .returning()
    .get();
  db.insert(profiles).values({ id: profileId, memberId: id, isMain: true, createdAt: now }).run();
  return { ...row, profileId };
}
