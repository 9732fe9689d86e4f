import type { TenantHandle } from "../db/tenant-store";
import type { Db } from "../db/types";

/** What the auth context knows of the calling member; loaded by the members module. */
export type ActorMember = {
  memberId: string;
  profileId: string;
  userId: string | null;
  email: string | null;
  displayName: string;
  roleKey: string;
  roleName: string;
  permissions: string[];
  mustChangePassword: boolean;
  isActive: boolean;
};

export type MemberResolver = (handle: TenantHandle, memberId: string) => ActorMember | null;

/** The caller of a tenant-scoped operation: the context every service receives. */
export type Actor = ActorMember & {
  sessionId: string;
  accountId: string | null;
  tenantId: string;
  tenantKey: string;
  handle: TenantHandle;
  db: Db;
  permissionSet: ReadonlySet<string>;
};

/** The claims of an access token. */
export type TokenClaims = {
  sid: string;
  acc: string | null;
  email: string;
  tid: string | null;
  tkey: string | null;
  sub: string | null;
};
