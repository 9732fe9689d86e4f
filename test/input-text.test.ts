import { describe, expect, test } from "bun:test";
import { FREE_TEXT_MAX } from "../src/platform/http/schemas";
import { createTenantFixture, expectProblem, fieldOf, useServer } from "./helpers/server";

const s = useServer();

async function spaceNames(token: string) {
  const res = await s.as({ token }).get("/spaces?limit=100");
  return (res.body.items ?? res.body.spaces ?? []).map((x: { name: string }) => x.name) as string[];
}

describe("text that is never stored", () => {
  test("a NUL character in any string of a JSON body is a 400 naming the field", async () => {
    const owner = await createTenantFixture(s.server);
    const res = await s.as(owner).post("/spaces", { name: "Alge\u0000bra" });
    expect(fieldOf(res)).toBe("name");
    expect(res.body.errors[0].message).toContain("NUL");
    const nested = await s.as(owner).post("/spaces", { name: "ok", description: "fine", semester: "a\u0000" });
    expect(fieldOf(nested)).toBe("semester");
    expect(await spaceNames(owner.token)).toEqual([]);
  });

  test("a body that is not valid UTF-8 is a 400 naming the body, not stored with U+FFFD", async () => {
    const owner = await createTenantFixture(s.server);
    const bytes = new Uint8Array([...new TextEncoder().encode('{"name":"Alg'), 0xff, 0xfe, ...new TextEncoder().encode('bra"}')]);
    const res = await s.call("POST", "/api/v1/spaces", {
      token: owner.token,
      headers: { "content-type": "application/json" },
      body: bytes,
    });
    expectProblem(res, 400, "VALIDATION_FAILED");
    expect(res.body.errors[0]).toMatchObject({ in: "body", field: "body", message: "is not valid UTF-8" });
    expect(await spaceNames(owner.token)).toEqual([]);
  });

  test("a description longer than the free-text bound is a 400; one at the bound is kept", async () => {
    const owner = await createTenantFixture(s.server);
    const huge = await s.as(owner).post("/spaces", { name: "Big", description: "x".repeat(3 * 1024 * 1024) });
    expect(fieldOf(huge)).toBe("description");
    const over = await s.as(owner).post("/spaces", { name: "Over", description: "x".repeat(FREE_TEXT_MAX + 1) });
    expect(fieldOf(over)).toBe("description");
    const at = await s.as(owner).post("/spaces", { name: "At", description: "x".repeat(FREE_TEXT_MAX) });
    expect(at.status).toBe(201);
    expect(at.body.description).toHaveLength(FREE_TEXT_MAX);
    expect(await spaceNames(owner.token)).toEqual(["At"]);
  });
});
