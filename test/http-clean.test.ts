import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Kind, type TSchema, Type as t } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { createApp } from "../src/app";
import { loadConfig } from "../src/config";
import { TenantInfo } from "../src/modules/tenant/model";
import { checkedCleaner, provablyClean } from "../src/platform/http/clean";
import { Enum, Nullable, Timestamp } from "../src/platform/http/schemas";

// docs/rules/performance.md#response-cleaning: the checked cleaner answers exactly what Value.Clean does.

type S = TSchema & { properties?: Record<string, S>; required?: string[]; items?: S; anyOf?: S[]; const?: unknown; format?: string };

/** A deterministic generator (mulberry32), so that a failure names its seed. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

/** A value of the schema, sometimes with properties it does not name (at any depth), sometimes of a wrong type. */
function sample(schema: S, rnd: () => number): unknown {
  if (rnd() < 0.03) return rnd() < 0.5 ? "wrong" : { stray: 1 };
  switch ((schema as { [Kind]?: string })[Kind]) {
    case "Object": {
      const out: Record<string, unknown> = {};
      for (const [key, prop] of Object.entries(schema.properties ?? {})) {
        if (!schema.required?.includes(key) && rnd() < 0.3) continue;
        if (rnd() < 0.05) out[`extra${Math.floor(rnd() * 9)}`] = { nested: rnd() };
        out[key] = sample(prop, rnd);
      }
      if (rnd() < 0.2) out.extraLast = [1, 2];
      return out;
    }
    case "Array":
      return Array.from({ length: Math.floor(rnd() * 3) }, () => sample(schema.items as S, rnd));
    case "Union": {
      const members = schema.anyOf ?? [];
      return sample(members[Math.floor(rnd() * members.length)] as S, rnd);
    }
    case "Literal":
      return schema.const;
    case "String":
      return schema.format === "date-time" ? (rnd() < 0.9 ? new Date(1e12 + rnd() * 1e11).toISOString() : "not a date") : "text";
    case "Integer":
    case "Number":
      return Math.floor(rnd() * 100);
    case "Boolean":
      return rnd() < 0.5;
    case "Null":
      return null;
    default:
      return { any: rnd() };
  }
}

const Item = t.Object({ id: t.String(), at: Timestamp, tags: t.Array(t.String()), note: t.Optional(Nullable(t.String())) });
const schemas: Record<string, S> = {
  TenantInfo: TenantInfo as S,
  nested: t.Object({
    items: t.Array(Item),
    next: Nullable(t.String()),
    owner: Nullable(t.Object({ id: t.String(), kind: Enum(["a", "b"]) })),
    extra: t.Optional(t.Unknown()),
  }) as S,
  list: t.Array(Item) as S,
};

describe("the checked cleaner", () => {
  for (const [name, schema] of Object.entries(schemas)) {
    test(`${name}: provably clean, and answers what Value.Clean answers (values, key order) for 3,000 values`, () => {
      expect(provablyClean(schema)).toBe(true);
      let cleaned = 0;
      const cleaner = checkedCleaner(schema, (v: unknown) => {
        cleaned++;
        return Value.Clean(schema, v);
      });
      const rnd = random(27);
      for (let i = 0; i < 3000; i++) {
        const value = sample(schema, rnd);
        const expected = JSON.stringify(Value.Clean(schema, structuredClone(value)));
        expect(JSON.stringify(cleaner(structuredClone(value)))).toBe(expected);
      }
      // Value.Clean ran only for the values the closed check refused: some, not all.
      expect(cleaned).toBeGreaterThan(0);
      expect(cleaned).toBeLessThan(2900);
    });
  }

  test("schemas where a passing closed check would not prove Value.Clean a no-op are cleaned every time", () => {
    const A = t.Object({ a: t.String() });
    const AB = t.Object({ a: t.String(), b: t.String() });
    // Value.Clean visits the first member that checks: A, which drops b; the closed check matches AB.
    const twoObjects = t.Union([A, AB]) as S;
    expect(Value.Clean(twoObjects, { a: "x", b: "y" })).toEqual({ a: "x" });
    expect(provablyClean(twoObjects)).toBe(false);
    const clean = (v: unknown) => Value.Clean(twoObjects, v);
    expect(checkedCleaner(twoObjects, clean)).toBe(clean);
    for (const s of [
      t.Intersect([A, t.Object({ c: t.String() })]),
      t.Record(t.String(), t.String()),
      t.Object({ a: t.String() }, { additionalProperties: t.String() }),
      t.Tuple([t.String()]),
      t.Object({ r: t.Ref("Other") }),
    ]) {
      expect(provablyClean(s as S)).toBe(false);
    }
  });
});

test("every route cleans with TypeBox (normalize: typebox), never exact-mirror, which answers keys in the schema's order", () => {
  // The checked cleaner answers a clean value as it is, in its own key order: what Value.Clean answers.
  const dataDir = mkdtempSync(join(tmpdir(), "learnspace-clean-"));
  const { app, rt } = createApp(loadConfig([], { LEARNSPACE_QUIET: "1" }, { port: 0, dataDir }));
  try {
    const routes = app.router.history as unknown as { method: string; path: string; compile?: () => unknown; composed: unknown }[];
    const sources = routes.map((r) => ({ route: `${r.method} ${r.path}`, code: String(r.compile ? r.compile() : r.composed) }));
    // Elysia wraps an exact-mirror Clean in try/catch and calls TypeBox's bare.
    expect(sources.filter((s) => /try\{[\w.]+=validator\.[\w[\]]+\.Clean\(/.test(s.code)).map((s) => s.route)).toEqual([]);
    expect(sources.filter((s) => /validator\.response\[200\]\.Clean\(/.test(s.code)).length).toBeGreaterThan(150);
  } finally {
    rt.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}, 60_000);
