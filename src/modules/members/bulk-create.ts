import { eq, or } from "drizzle-orm";
import type { Static } from "elysia";
import type { Actor } from "../../platform/auth/actor";
import { indexMember } from "../../platform/db/registry";
import { type Db, savepoint, write } from "../../platform/db/types";
import { invalid, Problem } from "../../platform/http/errors";
import type { Runtime } from "../../platform/runtime";
import { members } from "../../schema/members";
import { joinOrgUnits } from "../org/service";
import { spaceForTakeover } from "../spaces/access";
import { enrol, isBlocked } from "../spaces/members";
import { fieldValueInputs, firstRuleBroken, reasonOf } from "./bulk";
import { applyItem } from "./bulk-update";
import { upsertMemberFieldValues } from "./field-values";
import { linkGuardian } from "./guardians";
import { loadMembers } from "./list";
import { CreateMembersItem, type CreateMembersResult } from "./model";
import { checkNewMember, insertIssued, issuedPassword, isUnique } from "./service";
import { afterMemberUpdate, applyMemberUpdate, type MemberChange } from "./update";

type Item = Static<typeof CreateMembersItem>;
type Failure = { index: number; reason: string };
type ToInput = ReturnType<typeof fieldValueInputs>;

/** The member a userId or an e-mail names (userId compared case-insensitively), or undefined. */
function memberNamed(db: Db, key: string) {
  const k = key.toLowerCase();
  return db
    .select({ id: members.id, isActive: members.isActive })
    .from(members)
    .where(or(eq(members.userIdKey, k), eq(members.email, k)))
    .get();
}

/**
 * createMembers (docs/rules/members.md#bulk-create): each item goes createMember's path (checks,
 * hash, insert, directory) plus its extras, and lands in `created`, `updated` (upsert) or `failed`.
 * The hashes run concurrently before any write.
 */
export async function createMembers(rt: Runtime, actor: Actor, items: unknown[], upsert = false, now = Date.now()) {
  const failed: Failure[] = [];
  const checked: { index: number; input: Item; roleId: string }[] = [];
  const existing: { index: number; input: Item; id: string }[] = [];
  for (const [index, raw] of items.entries()) {
    const broken = firstRuleBroken(CreateMembersItem, raw);
    if (broken) {
      failed.push({ index, reason: broken });
      continue;
    }
    const input = raw as Item;
    const key = input.userId ?? input.email;
    const found = upsert && key ? memberNamed(actor.db, key) : undefined;
    if (found) {
      existing.push({ index, input, id: found.id });
      continue;
    }
    try {
      checked.push({ index, input, roleId: checkNewMember(actor, input).id });
    } catch (e) {
      failed.push({ index, reason: reasonOf(e, "FORBIDDEN_ROLE") });
    }
  }
  const passwords = await Promise.all(checked.map((c) => issuedPassword(c.input.password)));
  // One write transaction with a savepoint per item: each item stands or falls alone, and the
  // batch pays one synchronous commit instead of one per item. Items run in list order, so a
  // guardianOf finds the students of earlier items.
  const { stored, changed } = write(actor.db, (tx) => {
    const toInput = fieldValueInputs(
      tx,
      [...checked, ...existing].map((c) => c.input.fieldValues),
    );
    const fresh = new Map(checked.map((c, i) => [c.index, { c, i }]));
    const old = new Map(existing.map((x) => [x.index, x]));
    const stored: { index: number; id: string; email: string | null; tempPassword: string }[] = [];
    const changed: { index: number; id: string; change: MemberChange }[] = [];
    for (const index of [...fresh.keys(), ...old.keys()].sort((a, b) => a - b)) {
      const f = fresh.get(index);
      try {
        if (f) {
          const { tempPassword, passwordHash } = passwords[f.i] as Awaited<ReturnType<typeof issuedPassword>>;
          const id = savepoint(tx, (sp) => {
            const id = insertIssued(sp, f.c.input, f.c.roleId, passwordHash, now);
            const { externalMemberCode, affiliation } = f.c.input;
            if (externalMemberCode !== undefined || affiliation !== undefined)
              applyMemberUpdate(sp, actor, id, { externalMemberCode, affiliation }, now);
            if (f.c.input.fieldValues?.length) upsertMemberFieldValues(sp, id, f.c.input.fieldValues.map(toInput));
            applyExtras(sp, actor, id, f.c.input, now);
            return id;
          });
          stored.push({ index, id, email: f.c.input.email ?? null, tempPassword });
        } else {
          const x = old.get(index) as (typeof existing)[number];
          const change = savepoint(tx, (sp) => {
            const change = applyItem(sp, actor, upsertItem(x.id, x.input), toInput as ToInput, now);
            applyExtras(sp, actor, x.id, x.input, now);
            return change;
          });
          changed.push({ index, id: x.id, change });
        }
      } catch (e) {
        // A later item of the same list with an e-mail or userId an earlier one took.
        if (isUnique(e)) failed.push({ index, reason: "ALREADY_EXISTS" });
        else failed.push({ index, reason: reasonOf(e) });
      }
    }
    return { stored, changed };
  });
  write(rt.platform.db, (tx) => {
    for (const s of stored) indexMember(tx, s.email, actor.tenantId, s.id);
  });
  for (const d of changed) afterMemberUpdate(rt, actor, d.id, d.change, now);
  const loaded = new Map(loadMembers(actor.handle.sqlite, [...stored.map((s) => s.id), ...changed.map((d) => d.id)]).map((m) => [m.id, m]));
  const created: Static<typeof CreateMembersResult>["created"] = stored.flatMap((s) => {
    const member = loaded.get(s.id);
    return member ? [{ index: s.index, member, tempPassword: s.tempPassword }] : [];
  });
  const updated = changed.flatMap((d) => {
    const member = loaded.get(d.id);
    return member ? [{ index: d.index, member }] : [];
  });
  return { created, updated, failed: failed.sort((a, b) => a.index - b.index) };
}

/** An upsert item as an updateMembers item: its password is left alone. */
function upsertItem(id: string, input: Item) {
  const { displayName, email, userId, roleKey, externalMemberCode, affiliation, fieldValues } = input;
  return { id, displayName, email, userId, roleKey, externalMemberCode, affiliation, fieldValues };
}

/** orgUnitIds, spaceIds (PARTICIPANT) and guardianOf of one item; what cannot be made fails the item. */
function applyExtras(tx: Db, actor: Actor, id: string, input: Item, now: number) {
  if (input.orgUnitIds?.length) joinOrgUnits(tx, id, input.orgUnitIds, now);
  for (const [i, spaceId] of (input.spaceIds ?? []).entries()) {
    const field = `spaceIds[${i}]`;
    let space: ReturnType<typeof spaceForTakeover>;
    try {
      space = spaceForTakeover(actor, spaceId, tx);
    } catch (e) {
      if (e instanceof Problem && (e.status === 403 || e.status === 404)) throw invalid(field, "is not a space the caller administers");
      throw e;
    }
    if (isBlocked(tx, spaceId, id)) throw invalid(field, "is blocked in this space; unblock the member first");
    enrol(tx, space, [id], "PARTICIPANT", now);
  }
  if (input.guardianOf !== undefined) {
    const student = memberNamed(tx, input.guardianOf);
    if (!student) throw invalid("guardianOf", "does not name a member of this tenant");
    linkGuardian(tx, student, id, now, "guardianOf");
  }
}
