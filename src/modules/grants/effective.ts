import type { Database } from "bun:sqlite";

// Grants reach a member directly, through a group the member is in, or through allEnabled.
const GRANTED = `
  SELECT code FROM grants WHERE all_enabled = 1
  UNION SELECT code FROM grant_subjects WHERE subject_type = 'MEMBER' AND subject_id = ?1
  UNION SELECT gs.code FROM grant_subjects gs JOIN group_members gm
    ON gs.subject_type = 'GROUP' AND gs.subject_id = gm.group_id WHERE gm.member_id = ?1`;

/** Permission codes granted to a member beyond its role (one cached prepared statement). */
export function grantedCodes(sqlite: Database, memberId: string): string[] {
  return (sqlite.query(GRANTED).all(memberId) as { code: string }[]).map((r) => r.code);
}
