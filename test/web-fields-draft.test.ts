import { describe, expect, test } from "bun:test";
import { ApiError } from "../web/src/api/client";
import { isEmpty, prefixOf, type Saved, toBatch, toRow, under } from "../web/src/features/fields/draft";

const saved: Saved[] = [
  { id: "a", key: "grade", label: "Grade", type: "SELECT", options: ["1", "2"], required: false, isActive: true },
  { id: "b", key: "club", label: "Club", type: "SHORT_TEXT", options: [], required: false, isActive: true },
  { id: "c", key: "room", label: "Room", type: "NUMBER", options: [], required: true, isActive: true },
];

describe("the custom-field editor's batch (web/src/features/fields/draft)", () => {
  test("nothing edited: nothing to send", () => {
    expect(isEmpty(toBatch(saved, saved.map(toRow)))).toBe(true);
  });

  test("only what changed is sent, a choice added included; the order only when it moved", () => {
    const rows = saved.map(toRow);
    rows[0] = { ...(rows[0] as ReturnType<typeof toRow>), options: ["1", "2", "3"] };
    rows[1] = { ...(rows[1] as ReturnType<typeof toRow>), label: "Clubs" };
    const batch = toBatch(saved, rows);
    expect(batch.updates).toEqual([
      { id: "a", options: ["1", "2", "3"] },
      { id: "b", label: "Clubs" },
    ]);
    expect(batch.orderedIds).toBeUndefined();
    const moved = toBatch(saved, [rows[2], rows[0], rows[1]] as ReturnType<typeof toRow>[]);
    expect(moved.orderedIds).toEqual(["c", "a", "b"]);
  });

  test("a deleted field is neither updated nor ordered; a new one is created; each row's problems find it", () => {
    const rows = saved.map(toRow);
    rows[1] = { ...(rows[1] as ReturnType<typeof toRow>), deleted: true, label: "ignored" };
    rows[2] = { ...(rows[2] as ReturnType<typeof toRow>), required: false };
    rows.push({
      id: null,
      tempId: "new-1",
      key: "house",
      label: "House",
      type: "SELECT",
      options: ["Red"],
      required: false,
      isActive: true,
      deleted: false,
    });
    const batch = toBatch(saved, rows);
    expect(batch.deletes).toEqual(["b"]);
    expect(batch.updates).toEqual([{ id: "c", required: false }]);
    expect(batch.creates).toEqual([{ key: "house", label: "House", type: "SELECT", options: ["Red"], required: false }]);
    expect(batch.orderedIds).toBeUndefined();
    expect(prefixOf(batch, "c")).toBe("updates[0].");
    expect(prefixOf(batch, "new-1")).toBe("creates[0].");
    expect(prefixOf(batch, "a")).toBeNull();
  });

  test("a problem of one call of a series is named under its batch path", () => {
    const e = under("creates[1].", new ApiError(400, "VALIDATION_FAILED", [{ field: "options[0]", message: "must be 1..100 characters" }]));
    expect((e as ApiError).errors[0]?.field).toBe("creates[1].options[0]");
  });
});
