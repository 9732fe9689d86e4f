// The roll-over plan: what each row of next year's class list does to the school's members (docs/rules/console.md#roll-over).
import type { paths } from "../../api/schema";
import { type CsvRow, classNames, rowProblem } from "../members/csvRows";

export type Member = paths["/api/v1/members"]["get"]["responses"]["200"]["content"]["application/json"]["members"][number];
type SpaceRef = { id: string; name: string };

export type Change = { field: "displayName" | "email" | "affiliation" | "externalMemberCode" | "roleKey"; from: string; to: string };
export type PlanRow = {
  line: number;
  row: CsvRow;
  /** A problem found before sending (an import problem key, or unknownClass). */
  problem: string | null;
  member: Member | null;
  action: "create" | "update" | "same" | "error";
  changes: Change[];
  reactivate: boolean;
  spaces: SpaceRef[];
};
export type Plan = { rows: PlanRow[]; leavers: Member[] };

const key = (v: string | null | undefined) => (v ?? "").trim().toLowerCase();

/**
 * Each row matched to a member by user ID, else e-mail (as createMembers' upsert does), with the
 * fields it would change; `leaverRole` (a role key, or null) names the members of that role who are
 * missing from the file: they would be deactivated.
 */
export function makePlan(
  rows: CsvRow[],
  members: Member[],
  spaces: SpaceRef[],
  roleKeys: Set<string> | null,
  leaverRole: string | null,
): Plan {
  const byUserId = new Map(members.filter((m) => m.userId).map((m) => [key(m.userId), m]));
  const byEmail = new Map(members.filter((m) => m.email).map((m) => [key(m.email), m]));
  const spaceByName = new Map(spaces.map((s) => [key(s.name), s]));
  const seen = new Set<string>();
  const planned = rows.map((row, i): PlanRow => {
    const member = (row.userId ? byUserId.get(key(row.userId)) : byEmail.get(key(row.email))) ?? null;
    if (member) seen.add(member.id);
    const names = classNames(row);
    const found = names.map((n) => spaceByName.get(key(n)));
    const problem = rowProblem(row, roleKeys) ?? (found.some((s) => !s) ? "unknownClass" : null);
    const changes: Change[] = [];
    if (member) {
      const compare = (field: Change["field"], from: string | null, to: string) => {
        if (to && to !== (from ?? "")) changes.push({ field, from: from ?? "", to });
      };
      compare("displayName", member.displayName, row.displayName);
      compare("email", member.email, row.email);
      compare("affiliation", member.affiliation, row.affiliation);
      compare("externalMemberCode", member.externalMemberCode, row.externalMemberCode);
      compare("roleKey", member.role.key, row.roleKey);
    }
    const spacesOf = found.filter((s): s is SpaceRef => !!s);
    const reactivate = !!member && !member.isActive;
    const action = problem
      ? "error"
      : !member
        ? "create"
        : changes.length || spacesOf.length || reactivate || row.guardianOf
          ? "update"
          : "same";
    return { line: i + 2, row, problem, member, action, changes, reactivate, spaces: spacesOf };
  });
  const leavers = leaverRole ? members.filter((m) => m.isActive && m.role.key === leaverRole && !seen.has(m.id)) : [];
  return { rows: planned, leavers };
}

/** The createMembers item of a planned row (upsert: an existing member is updated, a new one created). */
export function createItem(p: PlanRow) {
  const r = p.row;
  return {
    displayName: r.displayName,
    roleKey: r.roleKey || p.member?.role.key || "member",
    ...(r.userId ? { userId: r.userId } : {}),
    ...(r.email ? { email: r.email } : {}),
    ...(r.password ? { password: r.password } : {}),
    ...(r.externalMemberCode ? { externalMemberCode: r.externalMemberCode } : {}),
    ...(r.affiliation ? { affiliation: r.affiliation } : {}),
    ...(r.guardianOf ? { guardianOf: r.guardianOf } : {}),
    ...(p.spaces.length ? { spaceIds: p.spaces.map((s) => s.id) } : {}),
  };
}
