import type { Database } from "bun:sqlite";
import type { Static } from "elysia";
import { badRequest, invalid, notFound } from "../../platform/http/errors";
import { iso, pageOf } from "../../platform/http/schemas";
import type { FieldType } from "../../schema/fields";
import type { FieldValue, ListMembersQuery, Member } from "./model";

export type ListQuery = Static<typeof ListMembersQuery>;
/** The repeated query keys exactly as sent. */
export type RawArrays = { roleKeys: string[]; statuses: string[]; fieldFilters: string[] };
type Param = string | number;

/**
 * Space counts: enrolments (ADMIN or PARTICIPANT) in active / inactive spaces, as correlated
 * counts over space_members(member_id, space_id) probing each space's primary key (CROSS JOIN
 * keeps that order: otherwise the planner may walk every active space per member). Filters,
 * sorts and the include=spaceCounts output all go through these expressions.
 */
const spaceCount = (active: 0 | 1) =>
  `(SELECT count(*) FROM space_members sm CROSS JOIN spaces sp ON sp.id = sm.space_id WHERE sm.member_id = m.id AND sp.is_active = ${active})`;
const ACTIVE_SPACE_COUNT = spaceCount(1);
const INACTIVE_SPACE_COUNT = spaceCount(0);

/** Sortable default columns (docs/rules/members.md#listing); nullable ones sort their nulls last in both directions. */
const COLUMN_SORTS: Record<string, string> = {
  displayName: "m.display_name",
  userId: "m.user_id_key",
  email: "m.email",
  lastLoginAt: "m.last_login_at",
  createdAt: "m.created_at",
  isActive: "m.is_active",
  activeSpaceCount: ACTIVE_SPACE_COUNT,
  inactiveSpaceCount: INACTIVE_SPACE_COUNT,
};

const VALUE_COLUMN: Record<FieldType, string> = {
  SHORT_TEXT: "value_text",
  LONG_TEXT: "value_text",
  SELECT: "value_text",
  NUMBER: "value_number",
  DATE: "value_date",
};

type Sort = { kind: "column"; expr: string } | { kind: "field"; fieldId: string; column: string };
type Clause = { sql: string; params: Param[] };
type Plan = {
  /** Every filter, as conditions on `m`: field filters as IN (built once), or as EXISTS (probed per row). */
  where: string;
  probe: string;
  params: Param[];
  /** A field filter (an exact one if any) that drives the count from its index (d), and the other filters. */
  driver: (Clause & { fieldId: string; rest: Clause }) | null;
  /** A search scans the members: its page and total come from one pass. */
  scan: boolean;
  sort: Sort;
  dir: "ASC" | "DESC";
};

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i;

/** One field filter on the columns prefixed `p`: substring for text types, exact otherwise (docs/rules/members.md#listing). */
function fieldMatch(type: FieldType, value: string, at: string, p: string): Clause & { exact: boolean } {
  switch (type) {
    case "SHORT_TEXT":
    case "LONG_TEXT":
      return { sql: `${p}value_text IS NOT NULL AND instr(lower(${p}value_text), lower(?)) > 0`, params: [value], exact: false };
    case "SELECT":
      return { sql: `${p}value_text = ?`, params: [value], exact: true };
    case "NUMBER": {
      const n = Number(value);
      if (value.trim() === "" || !Number.isFinite(n)) throw invalid(at, "must be a number for this field", "query");
      return { sql: `${p}value_number = ?`, params: [n], exact: true };
    }
    case "DATE": {
      if (DAY.test(value)) {
        const start = Date.parse(`${value}T00:00:00Z`);
        if (Number.isNaN(start)) throw invalid(at, "must be a date or date-time for this field", "query");
        return { sql: `${p}value_date >= ? AND ${p}value_date < ?`, params: [start, start + 86_400_000], exact: true };
      }
      const ms = Date.parse(value);
      if (!DATE_TIME.test(value) || Number.isNaN(ms)) throw invalid(at, "must be a date or date-time for this field", "query");
      return { sql: `${p}value_date = ?`, params: [ms], exact: true };
    }
  }
}

function memberFieldTypes(sqlite: Database): Map<string, FieldType> {
  const rows = sqlite.query("SELECT id, type FROM custom_fields WHERE kind = 'member'").all() as { id: string; type: FieldType }[];
  return new Map(rows.map((r) => [r.id, r.type]));
}

/**
 * Validates the query and turns it into SQL. Every 400 of the list beyond the schema's (getMember's
 * too) comes from here.
 */
export function planList(sqlite: Database, q: ListQuery, raw: RawArrays): Plan {
  const types = memberFieldTypes(sqlite);
  const sortBy = q.sortBy ?? "createdAt";
  let sort: Sort;
  const column = Object.hasOwn(COLUMN_SORTS, sortBy) ? COLUMN_SORTS[sortBy] : undefined;
  if (column) sort = { kind: "column", expr: column };
  else {
    const type = types.get(sortBy);
    if (!type)
      throw badRequest("UNKNOWN_SORT_FIELD", "unknown sort field", [{ in: "query", field: "sortBy", message: "unknown sort field" }]);
    sort = { kind: "field", fieldId: sortBy, column: VALUE_COLUMN[type] };
  }

  const clauses: (Clause & { probe?: string; driver?: Clause & { fieldId: string; exact: boolean } })[] = [];
  const add = (sql: string, ...params: Param[]) => clauses.push({ sql, params });

  // LIKE folds ASCII case only, as lower() would; the stored e-mail and userId key are lowercased.
  if (q.search !== undefined) {
    const pattern = `%${q.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    add(`(m.display_name LIKE ? ESCAPE '\\' OR m.user_id_key LIKE ? ESCAPE '\\' OR m.email LIKE ? ESCAPE '\\')`, pattern, pattern, pattern);
  }
  if (raw.roleKeys.length > 50) throw invalid("roleKeys", "must be 1..50 role keys", "query");
  raw.roleKeys.forEach((k, i) => {
    if (k.length < 1 || k.length > 100) throw invalid(`roleKeys[${i}]`, "must be a role key", "query");
  });
  const roleKeys = [...new Set([...raw.roleKeys, ...(q.roleKey ? [q.roleKey] : [])])];
  if (roleKeys.length) add(`m.role_id IN (SELECT id FROM roles WHERE key IN (${roleKeys.map(() => "?").join(",")}))`, ...roleKeys);
  if (raw.statuses.length > 2) throw invalid("statuses", "must be 1..2 items", "query");
  raw.statuses.forEach((v, i) => {
    if (v !== "active" && v !== "inactive") throw invalid(`statuses[${i}]`, "must be one of: active, inactive", "query");
  });
  const statuses = new Set([...raw.statuses, ...(q.status ? [q.status] : [])]);
  if (statuses.size === 1) add("m.is_active = ?", statuses.has("active") ? 1 : 0);

  if (raw.fieldFilters.length > 10) throw invalid("fieldFilters", "must be at most 10 items", "query");
  const filters = raw.fieldFilters.map((item, i) => {
    const at = `fieldFilters[${i}]`;
    const colon = item.indexOf(":");
    if (colon < 1) throw invalid(at, 'must be "<fieldId>:<value>"', "query");
    const value = item.slice(colon + 1);
    if (value.length < 1 || value.length > 255) throw invalid(at, "must have a value of 1..255 characters", "query");
    return { fieldId: item.slice(0, colon), value, at };
  });
  if ((q.filterFieldId === undefined) !== (q.filterValue === undefined)) {
    throw invalid(q.filterFieldId === undefined ? "filterFieldId" : "filterValue", "is required with the other one", "query");
  }
  if (q.filterFieldId !== undefined && q.filterValue !== undefined) {
    filters.push({ fieldId: q.filterFieldId, value: q.filterValue, at: "filterFieldId" });
  }
  for (const f of filters) {
    const type = types.get(f.fieldId);
    if (!type) throw invalid(f.at, "names no member field", "query");
    const match = fieldMatch(type, f.value, f.at, "");
    const clause = {
      sql: `m.id IN (SELECT member_id FROM member_field_values WHERE field_id = ? AND ${match.sql})`,
      probe: `EXISTS (SELECT 1 FROM member_field_values x WHERE x.member_id = m.id AND x.field_id = ? AND ${fieldMatch(type, f.value, f.at, "x.").sql})`,
      params: [f.fieldId, ...match.params],
    };
    const d = fieldMatch(type, f.value, f.at, "d.");
    clauses.push({ ...clause, driver: { fieldId: f.fieldId, sql: d.sql, params: d.params, exact: match.exact } });
  }

  if (q.lastLoginFrom !== undefined) add("m.last_login_at >= ?", Date.parse(q.lastLoginFrom));
  if (q.lastLoginTo !== undefined) add("m.last_login_at <= ?", Date.parse(q.lastLoginTo));
  if (q.isIssuedAccount !== undefined) add("m.is_issued_account = ?", q.isIssuedAccount === "true" ? 1 : 0);
  if (q.activeSpaceCountMin !== undefined) add(`${ACTIVE_SPACE_COUNT} >= ?`, q.activeSpaceCountMin);
  if (q.activeSpaceCountMax !== undefined) add(`${ACTIVE_SPACE_COUNT} <= ?`, q.activeSpaceCountMax);
  if (q.inactiveSpaceCountMin !== undefined) add(`${INACTIVE_SPACE_COUNT} >= ?`, q.inactiveSpaceCountMin);
  if (q.inactiveSpaceCountMax !== undefined) add(`${INACTIVE_SPACE_COUNT} <= ?`, q.inactiveSpaceCountMax);

  const join = (cs: Clause[]): Clause => ({
    sql: cs.length ? cs.map((c) => c.sql).join(" AND ") : "1",
    params: cs.flatMap((c) => c.params),
  });
  const all = join(clauses);
  const first = clauses.find((c) => c.driver?.exact) ?? clauses.find((c) => c.driver);
  return {
    where: all.sql,
    probe: clauses.length ? clauses.map((c) => c.probe ?? c.sql).join(" AND ") : "1",
    params: all.params,
    driver: first?.driver ? { ...first.driver, rest: join(clauses.filter((c) => c !== first)) } : null,
    scan: q.search !== undefined,
    sort,
    dir: q.sortDir === "asc" ? "ASC" : "DESC",
  };
}

/**
 * The number of matching members. A field filter drives it from its index (which it reads anyway)
 * and probes only its matches in the members' covering lookup index (named: the planner would
 * take the unique id index and read the table row as well).
 */
function countOf(sqlite: Database, plan: Plan): number {
  const d = plan.driver;
  const row = d
    ? sqlite
        .query(
          `SELECT count(*) AS n FROM member_field_values d CROSS JOIN members m INDEXED BY members_lookup_idx WHERE d.field_id = ? AND ${d.sql} AND m.id = d.member_id AND ${d.rest.sql}`,
        )
        .get(d.fieldId, ...d.params, ...d.rest.params)
    : sqlite.query(`SELECT count(*) AS n FROM members m WHERE ${plan.where}`).get(...plan.params);
  return (row as { n: number }).n;
}

const idsOf = (rows: unknown[]) => (rows as { id: string }[]).map((r) => r.id);

/** An index walk in sort order that would visit more rows than this filters first instead. */
const MAX_WALK = 20_000;

/**
 * Ids of one page, in order. The page walks the sort's index (a custom-field sort: the (field,
 * value, member) index, members without a value last) and probes each row's filters, which stops
 * after the page. Filters that match too few rows for that filter first and sort the matches.
 */
function pageIds(sqlite: Database, plan: Plan, limit: number, offset: number, total: number): string[] {
  const { params, sort, dir, driver } = plan;
  // max(rowid) estimates the member count in one index step (deletes leave gaps; an estimate is enough).
  const everyone =
    plan.where === "1" ? total : ((sqlite.query("SELECT max(rowid) AS n FROM members").get() as { n: number | null }).n ?? 0);
  const walk = ((offset + limit) * everyone) / Math.max(total, 1) <= MAX_WALK;
  const where = walk ? plan.probe : plan.where;
  if (sort.kind === "column") {
    if (!walk && driver) {
      const sql = `SELECT m.id FROM member_field_values d CROSS JOIN members m WHERE d.field_id = ? AND ${driver.sql} AND m.id = d.member_id
        AND ${driver.rest.sql} ORDER BY +${sort.expr} ${dir} NULLS LAST, m.id ${dir} LIMIT ? OFFSET ?`;
      return idsOf(sqlite.query(sql).all(driver.fieldId, ...driver.params, ...driver.rest.params, limit, offset));
    }
    const sql = `SELECT m.id FROM members m WHERE ${where} ORDER BY ${sort.expr} ${dir} NULLS LAST, m.id ${dir} LIMIT ? OFFSET ?`;
    return idsOf(sqlite.query(sql).all(...params, limit, offset));
  }
  const col = `s.${sort.column}`;
  const valued = `FROM member_field_values s CROSS JOIN members m INDEXED BY members_lookup_idx ON m.id = s.member_id WHERE s.field_id = ? AND ${col} IS NOT NULL AND ${where}`;
  const first = idsOf(
    sqlite
      .query(`SELECT m.id ${valued} ORDER BY ${col} ${dir}, s.member_id ${dir} LIMIT ? OFFSET ?`)
      .all(sort.fieldId, ...params, limit, offset),
  );
  if (first.length === limit) return first;
  // The page reaches past the members with a value: continue with those without one.
  const valuedCount =
    first.length > 0 || offset === 0
      ? offset + first.length
      : (sqlite.query(`SELECT count(*) AS n ${valued}`).get(sort.fieldId, ...params) as { n: number }).n;
  const rest = idsOf(
    sqlite
      .query(
        `SELECT m.id FROM members m WHERE ${where} AND NOT EXISTS (SELECT 1 FROM member_field_values v WHERE v.member_id = m.id
          AND v.field_id = ? AND v.${sort.column} IS NOT NULL) ORDER BY m.id ${dir} LIMIT ? OFFSET ?`,
      )
      .all(...params, sort.fieldId, limit - first.length, Math.max(0, offset - valuedCount)),
  );
  return [...first, ...rest];
}

type MemberRow = {
  id: string;
  user_id: string | null;
  display_name: string;
  email: string | null;
  is_active: number;
  last_login_at: number | null;
  created_at: number;
  picture_url: string | null;
  affiliation: string | null;
  external_member_code: string | null;
  bio: string | null;
  is_issued_account: number;
  position_id: string | null;
  role_key: string;
  role_name: string;
  active_space_count: number;
  inactive_space_count: number;
};
type ValueRow = { member_id: string; field_id: string; value_text: string | null; value_number: number | null; value_date: number | null };

const LOAD_MEMBERS = `
  SELECT m.id, m.user_id, m.display_name, m.email, m.is_active, m.last_login_at, m.created_at, m.picture_url,
         m.affiliation, m.external_member_code, m.bio, m.is_issued_account, m.position_id,
         r.key AS role_key, r.name AS role_name,
         ${ACTIVE_SPACE_COUNT} AS active_space_count, ${INACTIVE_SPACE_COUNT} AS inactive_space_count
  FROM members m JOIN roles r ON r.id = m.role_id WHERE m.id IN (SELECT value FROM json_each(?))`;
const LOAD_VALUES = `
  SELECT v.member_id, v.field_id, v.value_text, v.value_number, v.value_date
  FROM member_field_values v JOIN custom_fields f ON f.id = v.field_id
  WHERE v.member_id IN (SELECT value FROM json_each(?)) ORDER BY f.position, f.id`;

export function toFieldValue(v: ValueRow): Static<typeof FieldValue> {
  return { fieldId: v.field_id, valueText: v.value_text, valueNumber: v.value_number, valueDate: iso(v.value_date) };
}

function toMember(row: MemberRow, values: ValueRow[], spaceCounts: boolean): Static<typeof Member> {
  return {
    id: row.id,
    userId: row.user_id,
    displayName: row.display_name,
    email: row.email,
    role: { key: row.role_key, name: row.role_name },
    isActive: row.is_active === 1,
    lastLoginAt: iso(row.last_login_at),
    createdAt: iso(row.created_at) as string,
    pictureUrl: row.picture_url,
    affiliation: row.affiliation,
    externalMemberCode: row.external_member_code,
    bio: row.bio,
    isIssuedAccount: row.is_issued_account === 1,
    positionId: row.position_id,
    ...(spaceCounts ? { activeSpaceCount: row.active_space_count, inactiveSpaceCount: row.inactive_space_count } : {}),
    fieldValues: values.map(toFieldValue),
  };
}

/** Members by id, in the given order, with their field values: two queries for the whole page. */
export function loadMembers(sqlite: Database, memberIds: string[], spaceCounts = false): Static<typeof Member>[] {
  if (memberIds.length === 0) return [];
  const json = JSON.stringify(memberIds);
  const rows = new Map((sqlite.query(LOAD_MEMBERS).all(json) as MemberRow[]).map((r) => [r.id, r]));
  const values = new Map<string, ValueRow[]>();
  for (const v of sqlite.query(LOAD_VALUES).all(json) as ValueRow[]) {
    const list = values.get(v.member_id);
    if (list) list.push(v);
    else values.set(v.member_id, [v]);
  }
  return memberIds.flatMap((id) => {
    const row = rows.get(id);
    return row ? [toMember(row, values.get(id) ?? [], spaceCounts)] : [];
  });
}

export function loadMember(sqlite: Database, id: string, spaceCounts = false) {
  const member = loadMembers(sqlite, [id], spaceCounts)[0];
  if (!member) throw notFound();
  return member;
}

export function listMembers(sqlite: Database, q: ListQuery, raw: RawArrays) {
  const plan = planList(sqlite, q, raw);
  const pageSize = q.pageSize ?? 20;
  const offset = ((q.page ?? 1) - 1) * pageSize;
  let ids: string[];
  let total: number;
  if (plan.scan && plan.sort.kind === "column") {
    // A search reads every member anyway: sort the matches and count them in the same pass.
    const rows = sqlite
      .query(
        `SELECT m.id, count(*) OVER () AS total FROM members m WHERE ${plan.where}
         ORDER BY +${plan.sort.expr} ${plan.dir} NULLS LAST, m.id ${plan.dir} LIMIT ? OFFSET ?`,
      )
      .all(...plan.params, pageSize, offset) as { id: string; total: number }[];
    ids = rows.map((r) => r.id);
    total = rows[0]?.total ?? (offset > 0 ? countOf(sqlite, plan) : 0);
  } else {
    total = countOf(sqlite, plan);
    ids = offset < total ? pageIds(sqlite, plan, pageSize, offset, total) : [];
  }
  const { page, totalPages } = pageOf(total, q.page, pageSize);
  return { members: loadMembers(sqlite, ids, q.include === "spaceCounts"), total, page, pageSize, totalPages };
}

/** getMember: the list's query is validated the same way; only `include` has an effect. */
export function getMember(sqlite: Database, id: string, q: ListQuery, raw: RawArrays) {
  planList(sqlite, q, raw);
  return loadMember(sqlite, id, q.include === "spaceCounts");
}
