// updateMembers (docs/rules/members.md#bulk-update): each item alone, as its single calls would.
import type { Static } from "elysia";
import type { Actor } from "../../platform/auth/actor";
import { type Db, savepoint, write } from "../../platform/db/types";
import { forbidden } from "../../platform/http/errors";
import type { Runtime } from "../../platform/runtime";
import { fieldValueInputs, firstRuleBroken, reasonOf } from "./bulk";
import { upsertMemberFieldValues } from "./field-values";
import { loadMembers } from "./list";
import { UpdateMembersItem, type UpdateMembersResult } from "./model";
import { applyMemberRole } from "./role";
import { afterMemberUpdate, applyMemberUpdate, type MemberChange, memberWithRole } from "./update";

type Item = Static<typeof UpdateMembersItem>;
type Failure = { index: number; reason: string };

/** One transaction with a savepoint per item: an item stands or falls alone, the batch pays one commit. */
export function updateMembers(rt: Runtime, actor: Actor, items: unknown[], now = Date.now()): Static<typeof UpdateMembersResult> {
  const failed: Failure[] = [];
  const checked: { index: number; item: Item }[] = [];
  for (const [index, raw] of items.entries()) {
    const broken = firstRuleBroken(UpdateMembersItem, raw);
    if (broken) failed.push({ index, reason: broken });
    else checked.push({ index, item: raw as Item });
  }
  const done = write(actor.db, (tx) => {
    const toInput = fieldValueInputs(
      tx,
      checked.map((c) => c.item.fieldValues),
    );
    return checked.flatMap(({ index, item }) => {
      try {
        const change = savepoint(tx, (sp) => applyItem(sp, actor, item, toInput, now));
        return [{ index, id: item.id, change }];
      } catch (e) {
        failed.push({ index, reason: reasonOf(e) });
        return [];
      }
    });
  });
  for (const d of done) afterMemberUpdate(rt, actor, d.id, d.change, now);
  const loaded = new Map(
    loadMembers(
      actor.handle.sqlite,
      done.map((d) => d.id),
    ).map((m) => [m.id, m]),
  );
  const updated = done.flatMap((d) => {
    const member = loaded.get(d.id);
    return member ? [{ index: d.index, member }] : [];
  });
  return { updated, failed: failed.sort((a, b) => a.index - b.index) };
}

/** One updateMembers item in the caller's savepoint (createMembers's upsert path too). */
export function applyItem(tx: Db, actor: Actor, item: Item, toInput: ReturnType<typeof fieldValueInputs>, now: number): MemberChange {
  const { id, roleKey, fieldValues, ...fields } = item;
  const change = applyMemberUpdate(tx, actor, id, fields, now);
  if (roleKey !== undefined && memberWithRole(tx, id)?.roleKey !== roleKey) {
    if (!actor.permissionSet.has("member:manage-role")) throw forbidden();
    applyMemberRole(tx, actor, id, roleKey, now);
  }
  if (fieldValues?.length) upsertMemberFieldValues(tx, id, fieldValues.map(toInput));
  return change;
}
