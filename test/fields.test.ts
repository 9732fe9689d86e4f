import { describe, expect, test } from "bun:test";
import { createMemberFixture, createTenantFixture, expectProblem, useServer } from "./helpers/server";

const api = useServer();

async function fixture() {
  const tenant = await createTenantFixture(api.server);
  const member = await createMemberFixture(api.server, tenant);
  return { tenant, owner: tenant.token, member: member.token };
}

const create = (token: string, json: object, path = "/api/v1/member-fields") => api.call("POST", path, { token, json });
const list = async (token: string, path = "/api/v1/member-fields") => (await api.call("GET", path, { token })).body.fields as any[];
const field = (key: string, extra: object = {}) => ({ key, label: `Label ${key}`, type: "SHORT_TEXT", ...extra });
const bad = (res: { status: number; headers: Headers; body: any }, fieldName: string) => {
  const body = expectProblem(res, 400, "VALIDATION_FAILED");
  expect(body.errors.map((e: { field: string }) => e.field)).toContain(fieldName);
};

describe("POST /api/v1/member-fields — createMemberField", () => {
  test("creates a field at the end of the order", async () => {
    const { owner } = await fixture();
    const a = await create(owner, field("dept"));
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({
      key: "dept",
      label: "Label dept",
      type: "SHORT_TEXT",
      options: [],
      isDefault: false,
      required: false,
      order: 0,
      isActive: true,
    });
    const b = await create(owner, { key: "grade", label: "Grade", type: "SELECT", options: ["A", "B"], required: true });
    expect(b.body).toMatchObject({ type: "SELECT", options: ["A", "B"], required: true, order: 1 });
    expect((await list(owner)).map((f) => f.key)).toEqual(["dept", "grade"]);
  });

  test("rejects each bound with 400", async () => {
    const { owner } = await fixture();
    bad(await create(owner, field("Upper")), "key");
    bad(await create(owner, field("k".repeat(101))), "key");
    bad(await create(owner, field("")), "key");
    bad(await create(owner, { ...field("a"), label: "" }), "label");
    bad(await create(owner, { ...field("a"), label: "x".repeat(256) }), "label");
    bad(await create(owner, { ...field("a"), type: "BOOLEAN" }), "type");
    bad(await create(owner, { label: "x", type: "SHORT_TEXT" }), "key");
    bad(await create(owner, field("a", { type: "SELECT" })), "options");
    bad(await create(owner, field("a", { type: "SELECT", options: [] })), "options");
    bad(await create(owner, field("a", { type: "SELECT", options: Array.from({ length: 51 }, (_, i) => `o${i}`) })), "options");
    bad(await create(owner, field("a", { type: "SELECT", options: ["x".repeat(101)] })), "options[0]");
    bad(await create(owner, field("a", { type: "SELECT", options: [""] })), "options[0]");
    bad(await create(owner, field("a", { type: "NUMBER", options: ["1"] })), "options");
    expect(await list(owner)).toEqual([]);
  });

  test("returns 409 for a key taken in the same kind, but not across kinds", async () => {
    const { owner } = await fixture();
    await create(owner, field("dept"));
    expectProblem(await create(owner, field("dept")), 409, "ALREADY_EXISTS");
    expect((await create(owner, field("dept"), "/api/v1/space-fields")).status).toBe(201);
  });

  test("returns 401 without a token and 403 without tenant-settings:manage", async () => {
    const { member } = await fixture();
    expectProblem(await api.call("POST", "/api/v1/member-fields", { json: field("a") }), 401, "UNAUTHENTICATED");
    expectProblem(await create(member, field("a")), 403, "FORBIDDEN");
  });
});

describe("POST /api/v1/space-fields — createSpaceField", () => {
  test("creates a space field, listed apart from member fields", async () => {
    const { owner } = await fixture();
    const res = await create(owner, field("campus", { type: "NUMBER" }), "/api/v1/space-fields");
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ key: "campus", type: "NUMBER", order: 0 });
    expect((await list(owner, "/api/v1/space-fields")).map((f) => f.key)).toEqual(["campus"]);
    expect(await list(owner)).toEqual([]);
  });

  test("rejects bounds with 400, 401 and 403", async () => {
    const { owner, member } = await fixture();
    bad(await create(owner, field("Bad-Key"), "/api/v1/space-fields"), "key");
    bad(await create(owner, field("a", { type: "SELECT" }), "/api/v1/space-fields"), "options");
    expectProblem(await api.call("POST", "/api/v1/space-fields", { json: field("a") }), 401, "UNAUTHENTICATED");
    expectProblem(await create(member, field("a"), "/api/v1/space-fields"), 403, "FORBIDDEN");
  });
});

describe("GET /api/v1/member-fields — listMemberFields / GET /api/v1/space-fields — listSpaceFields", () => {
  test("any member lists all fields by order, inactive included", async () => {
    const { owner, member } = await fixture();
    const a = (await create(owner, field("a"))).body;
    await create(owner, field("b"));
    await api.call("PATCH", `/api/v1/member-fields/${a.id}`, { token: owner, json: { isActive: false } });
    const fields = await list(member);
    expect(fields.map((f) => [f.key, f.isActive])).toEqual([
      ["a", false],
      ["b", true],
    ]);
    expect((await api.call("GET", "/api/v1/space-fields", { token: member })).body).toEqual({ fields: [] });
  });

  test("returns 401 without a token", async () => {
    expectProblem(await api.call("GET", "/api/v1/member-fields"), 401, "UNAUTHENTICATED");
    expectProblem(await api.call("GET", "/api/v1/space-fields"), 401, "UNAUTHENTICATED");
  });
});

describe("PATCH /api/v1/member-fields/{fieldId} — updateMemberField", () => {
  test("changes label, options, required and isActive; absent fields stay", async () => {
    const { owner } = await fixture();
    const f = (await create(owner, field("grade", { type: "SELECT", options: ["A"] }))).body;
    const res = await api.call("PATCH", `/api/v1/member-fields/${f.id}`, {
      token: owner,
      json: { label: "Level", options: ["A", "B"], required: true, isActive: false },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: f.id, key: "grade", label: "Level", options: ["A", "B"], required: true, isActive: false });
    const again = await api.call("PATCH", `/api/v1/member-fields/${f.id}`, { token: owner, json: { isActive: true } });
    expect(again.body).toMatchObject({ label: "Level", options: ["A", "B"], required: true, isActive: true });
    expect((await list(owner))[0]).toMatchObject({ label: "Level", isActive: true });
  });

  test("rejects bounds with 400", async () => {
    const { owner } = await fixture();
    const sel = (await create(owner, field("grade", { type: "SELECT", options: ["A"] }))).body;
    const txt = (await create(owner, field("dept"))).body;
    bad(await api.call("PATCH", `/api/v1/member-fields/${sel.id}`, { token: owner, json: { label: "" } }), "label");
    bad(await api.call("PATCH", `/api/v1/member-fields/${sel.id}`, { token: owner, json: { options: [] } }), "options");
    bad(await api.call("PATCH", `/api/v1/member-fields/${txt.id}`, { token: owner, json: { options: ["x"] } }), "options");
    bad(await api.call("PATCH", `/api/v1/member-fields/${sel.id}`, { token: owner, json: { isActive: "no" } }), "isActive");
  });

  test("returns 404 for a field of another tenant, of the other kind, or unknown", async () => {
    const { owner } = await fixture();
    const other = await fixture();
    const foreign = (await create(other.owner, field("dept"))).body;
    const space = (await create(owner, field("campus"), "/api/v1/space-fields")).body;
    expectProblem(await api.call("PATCH", `/api/v1/member-fields/${foreign.id}`, { token: owner, json: { label: "x" } }), 404, "NOT_FOUND");
    expectProblem(await api.call("PATCH", `/api/v1/member-fields/${space.id}`, { token: owner, json: { label: "x" } }), 404, "NOT_FOUND");
    expectProblem(await api.call("PATCH", "/api/v1/member-fields/nope", { token: owner, json: { label: "x" } }), 404, "NOT_FOUND");
  });

  test("returns 401 and 403", async () => {
    const { owner, member } = await fixture();
    const f = (await create(owner, field("dept"))).body;
    expectProblem(await api.call("PATCH", `/api/v1/member-fields/${f.id}`, { json: { label: "x" } }), 401, "UNAUTHENTICATED");
    expectProblem(await api.call("PATCH", `/api/v1/member-fields/${f.id}`, { token: member, json: { label: "x" } }), 403, "FORBIDDEN");
  });
});

describe("PATCH /api/v1/space-fields/{fieldId} — updateSpaceField", () => {
  test("updates a space field; a member field id gets 404", async () => {
    const { owner, member } = await fixture();
    const s = (await create(owner, field("campus"), "/api/v1/space-fields")).body;
    const m = (await create(owner, field("dept"))).body;
    const res = await api.call("PATCH", `/api/v1/space-fields/${s.id}`, { token: owner, json: { label: "Campus", isActive: false } });
    expect(res.body).toMatchObject({ id: s.id, label: "Campus", isActive: false });
    expect((await list(owner, "/api/v1/space-fields"))[0]).toMatchObject({ label: "Campus", isActive: false });
    expectProblem(await api.call("PATCH", `/api/v1/space-fields/${m.id}`, { token: owner, json: { label: "x" } }), 404, "NOT_FOUND");
    bad(await api.call("PATCH", `/api/v1/space-fields/${s.id}`, { token: owner, json: { label: "x".repeat(256) } }), "label");
    expectProblem(await api.call("PATCH", `/api/v1/space-fields/${s.id}`, { json: { label: "x" } }), 401, "UNAUTHENTICATED");
    expectProblem(await api.call("PATCH", `/api/v1/space-fields/${s.id}`, { token: member, json: { label: "x" } }), 403, "FORBIDDEN");
  });
});

describe("PUT /api/v1/member-fields/order — reorderMemberFields", () => {
  test("puts listed ids first; unlisted keep their relative order after them", async () => {
    const { owner } = await fixture();
    const ids: string[] = [];
    for (const k of ["a", "b", "c", "d"]) ids.push((await create(owner, field(k))).body.id);
    const res = await api.call("PUT", "/api/v1/member-fields/order", { token: owner, json: { orderedIds: [ids[2], ids[0]] } });
    expect(res.status).toBe(200);
    expect(res.body.fields.map((f: any) => [f.key, f.order])).toEqual([
      ["c", 0],
      ["a", 1],
      ["b", 2],
      ["d", 3],
    ]);
    expect((await list(owner)).map((f) => f.key)).toEqual(["c", "a", "b", "d"]);
  });

  test("rejects unknown or repeated ids and more than 200 with 400", async () => {
    const { owner } = await fixture();
    const other = await fixture();
    const a = (await create(owner, field("a"))).body.id;
    const foreign = (await create(other.owner, field("a"))).body.id;
    bad(await api.call("PUT", "/api/v1/member-fields/order", { token: owner, json: { orderedIds: [foreign] } }), "orderedIds[0]");
    bad(await api.call("PUT", "/api/v1/member-fields/order", { token: owner, json: { orderedIds: [a, a] } }), "orderedIds[1]");
    bad(await api.call("PUT", "/api/v1/member-fields/order", { token: owner, json: { orderedIds: Array(201).fill(a) } }), "orderedIds");
    bad(await api.call("PUT", "/api/v1/member-fields/order", { token: owner, json: {} }), "orderedIds");
  });

  test("returns 401 and 403", async () => {
    const { member } = await fixture();
    expectProblem(await api.call("PUT", "/api/v1/member-fields/order", { json: { orderedIds: [] } }), 401, "UNAUTHENTICATED");
    expectProblem(await api.call("PUT", "/api/v1/member-fields/order", { token: member, json: { orderedIds: [] } }), 403, "FORBIDDEN");
  });
});

describe("PUT /api/v1/space-fields/order — reorderSpaceFields", () => {
  test("reorders space fields only", async () => {
    const { owner, member } = await fixture();
    const x = (await create(owner, field("x"), "/api/v1/space-fields")).body.id;
    const y = (await create(owner, field("y"), "/api/v1/space-fields")).body.id;
    const m = (await create(owner, field("m"))).body.id;
    const res = await api.call("PUT", "/api/v1/space-fields/order", { token: owner, json: { orderedIds: [y] } });
    expect(res.body.fields.map((f: any) => f.id)).toEqual([y, x]);
    bad(await api.call("PUT", "/api/v1/space-fields/order", { token: owner, json: { orderedIds: [m] } }), "orderedIds[0]");
    expectProblem(await api.call("PUT", "/api/v1/space-fields/order", { json: { orderedIds: [] } }), 401, "UNAUTHENTICATED");
    expectProblem(await api.call("PUT", "/api/v1/space-fields/order", { token: member, json: { orderedIds: [] } }), 403, "FORBIDDEN");
  });
});

describe("POST /api/v1/member-fields/batch — batchEditMemberFields", () => {
  test("applies deletes, then updates, then creates, then orderedIds", async () => {
    const { owner } = await fixture();
    const a = (await create(owner, field("a"))).body.id;
    const b = (await create(owner, field("b"))).body.id;
    const c = (await create(owner, field("c"))).body.id;
    const res = await api.call("POST", "/api/v1/member-fields/batch", {
      token: owner,
      json: {
        deletes: [a],
        updates: [{ id: b, label: "Bee", isActive: false }],
        // the deleted key is free again for a create in the same batch
        creates: [field("a", { type: "NUMBER" }), field("d")],
        orderedIds: [c],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.fields.map((f: any) => [f.key, f.order])).toEqual([
      ["c", 0],
      ["b", 1],
      ["a", 2],
      ["d", 3],
    ]);
    expect(res.body.fields[1]).toMatchObject({ label: "Bee", isActive: false });
    expect(res.body.fields[2]).toMatchObject({ type: "NUMBER" });
    expect((await list(owner)).map((f) => f.key)).toEqual(["c", "b", "a", "d"]);
  });

  test("is all or nothing: a failing create leaves the deletes and updates undone", async () => {
    const { owner } = await fixture();
    const a = (await create(owner, field("a"))).body.id;
    const b = (await create(owner, field("b"))).body.id;
    const before = await list(owner);
    const dup = await api.call("POST", "/api/v1/member-fields/batch", {
      token: owner,
      json: { deletes: [a], updates: [{ id: b, label: "changed" }], creates: [field("b")] },
    });
    expectProblem(dup, 409, "ALREADY_EXISTS");
    const badUpdate = await api.call("POST", "/api/v1/member-fields/batch", {
      token: owner,
      json: { deletes: [a], updates: [{ id: a, label: "gone" }] },
    });
    bad(badUpdate, "updates[0].id");
    const badOrder = await api.call("POST", "/api/v1/member-fields/batch", {
      token: owner,
      json: { creates: [field("z")], orderedIds: ["unknown"] },
    });
    bad(badOrder, "orderedIds[0]");
    expect(await list(owner)).toEqual(before);
  });

  test("rejects each bound with 400", async () => {
    const { owner } = await fixture();
    const call = (json: object) => api.call("POST", "/api/v1/member-fields/batch", { token: owner, json });
    bad(await call({ deletes: Array(201).fill("x") }), "deletes");
    bad(await call({ updates: Array(201).fill({ id: "x" }) }), "updates");
    bad(await call({ creates: Array(201).fill(field("a")) }), "creates");
    bad(await call({ orderedIds: Array(201).fill("x") }), "orderedIds");
    bad(await call({ deletes: ["unknown"] }), "deletes[0]");
    bad(await call({ creates: [field("BAD")] }), "creates[0].key");
    bad(await call({ creates: [field("s", { type: "SELECT" })] }), "creates[0].options");
    bad(await call({ updates: [{ id: "x", label: "" }] }), "updates[0].label");
  });

  test("returns 401 and 403", async () => {
    const { member } = await fixture();
    expectProblem(await api.call("POST", "/api/v1/member-fields/batch", { json: {} }), 401, "UNAUTHENTICATED");
    expectProblem(await api.call("POST", "/api/v1/member-fields/batch", { token: member, json: {} }), 403, "FORBIDDEN");
  });
});

describe("GET/PUT /api/v1/member-fields/display — getMemberFieldDisplay, setMemberFieldDisplay", () => {
  const DEFAULTS = ["displayName", "userId", "email", "lastLoginAt", "createdAt", "isActive", "activeSpaceCount", "inactiveSpaceCount"];

  test("defaults to every default column and active field, visible, in field order", async () => {
    const { owner, member } = await fixture();
    const a = (await create(owner, field("a"))).body.id;
    const b = (await create(owner, field("b"))).body.id;
    await api.call("PATCH", `/api/v1/member-fields/${b}`, { token: owner, json: { isActive: false } });
    const res = await api.call("GET", "/api/v1/member-fields/display", { token: member });
    expect(res.status).toBe(200);
    expect(res.body.items.map((i: any) => i.fieldId)).toEqual([...DEFAULTS, a]);
    expect(res.body.items[0]).toEqual({
      fieldId: "displayName",
      visible: true,
      order: 0,
      visibility: "PUBLIC",
      label: "Display name",
      type: "SHORT_TEXT",
      isDefault: true,
    });
    expect(res.body.items[8]).toMatchObject({ fieldId: a, label: "Label a", type: "SHORT_TEXT", isDefault: false, order: 8 });
  });

  test("PUT replaces the stored list; a later GET shows it by order", async () => {
    const { owner } = await fixture();
    const a = (await create(owner, field("a"))).body.id;
    const res = await api.call("PUT", "/api/v1/member-fields/display", {
      token: owner,
      json: {
        entries: [
          { fieldId: a, visible: false, order: 2, visibility: "PUBLIC" },
          { fieldId: "email", order: 1 },
        ],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.items).toEqual([
      { fieldId: "email", visible: true, order: 1, visibility: "PUBLIC", label: "E-mail", type: "SHORT_TEXT", isDefault: true },
      { fieldId: a, visible: false, order: 2, visibility: "PUBLIC", label: "Label a", type: "SHORT_TEXT", isDefault: false },
    ]);
    expect((await api.call("GET", "/api/v1/member-fields/display", { token: owner })).body).toEqual(res.body);
    await api.call("PUT", "/api/v1/member-fields/display", { token: owner, json: { entries: [] } });
    expect((await api.call("GET", "/api/v1/member-fields/display", { token: owner })).body).toEqual({ items: [] });
  });

  test("an entry's order is any safe integer (the API says only integer)", async () => {
    const { owner } = await fixture();
    const res = await api.call("PUT", "/api/v1/member-fields/display", {
      token: owner,
      json: {
        entries: [
          { fieldId: "email", order: Number.MAX_SAFE_INTEGER },
          { fieldId: "userId", order: 10000 },
          { fieldId: "displayName", order: -5 },
        ],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.items.map((i: { fieldId: string; order: number }) => [i.fieldId, i.order])).toEqual([
      ["displayName", -5],
      ["userId", 10000],
      ["email", Number.MAX_SAFE_INTEGER],
    ]);
    bad(
      await api.call("PUT", "/api/v1/member-fields/display", { token: owner, json: { entries: [{ fieldId: "email", order: 1.5 }] } }),
      "entries[0].order",
    );
  });

  test("rejects unknown, repeated or too many entries with 400", async () => {
    const { owner } = await fixture();
    const other = await fixture();
    const foreign = (await create(other.owner, field("a"))).body.id;
    const put = (json: object) => api.call("PUT", "/api/v1/member-fields/display", { token: owner, json });
    bad(await put({ entries: [{ fieldId: foreign }] }), "entries[0].fieldId");
    bad(await put({ entries: [{ fieldId: "email" }, { fieldId: "email" }] }), "entries[1].fieldId");
    bad(await put({ entries: Array(501).fill({ fieldId: "email" }) }), "entries");
    bad(await put({ entries: [{ fieldId: "email", visibility: "PRIVATE" }] }), "entries[0].visibility");
    bad(await put({}), "entries");
  });

  test("returns 401 and 403", async () => {
    const { member } = await fixture();
    expectProblem(await api.call("GET", "/api/v1/member-fields/display"), 401, "UNAUTHENTICATED");
    expectProblem(await api.call("PUT", "/api/v1/member-fields/display", { json: { entries: [] } }), 401, "UNAUTHENTICATED");
    expectProblem(await api.call("PUT", "/api/v1/member-fields/display", { token: member, json: { entries: [] } }), 403, "FORBIDDEN");
  });
});
