import { inArray, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { Db } from "../../platform/db/types";
import { invalid } from "../../platform/http/errors";
import { members } from "../../schema/members";

/** Case-insensitive (ASCII) substring match with LIKE's wildcards escaped. */
export function contains(column: SQLiteColumn, search: string): SQL {
  const pattern = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql`${column} LIKE ${pattern} ESCAPE '\\'`;
}

/**
 * The distinct active member ids of a `userIds` body field, all checked in one query; the first
 * unknown one gets 400 naming `userIds[i]` (docs/rules/conventions.md#body-references). Inactive members are
 * left out: adds to spaces, groups and org units skip them (docs/rules/members.md#deactivation).
 */
export function requireMemberIds(db: Db, ids: string[], field = "userIds"): string[] {
  const unique = [...new Set(ids)];
  const found = new Map(
    db
      .select({ id: members.id, isActive: members.isActive })
      .from(members)
      .where(inArray(members.id, unique))
      .all()
      .map((r) => [r.id, r.isActive]),
  );
  const missing = ids.findIndex((id) => !found.has(id));
  if (missing >= 0) throw invalid(`${field}[${missing}]`, "is not a member of this tenant");
  return unique.filter((id) => found.get(id));
}
