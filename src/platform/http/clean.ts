import { Kind, type TSchema } from "@sinclair/typebox";
import { TypeCheck, TypeCompiler } from "@sinclair/typebox/compiler";
import { isFrozenThrough } from "../db/sqlite";

/**
 * Elysia (normalize "typebox") gives every compiled body, query and response validator a `Clean`:
 * TypeBox's `Value.Clean`, which walks the value against the schema on every request and deletes
 * what the schema does not name. Most values have nothing to delete. A validator's `Clean` is made to
 * ask a compiled check first, of the schema with every object closed (`additionalProperties: false`)
 * and no formats: when it passes, the value has no property `Value.Clean` would delete and is answered
 * as it is; otherwise `Value.Clean` runs as before (docs/rules/performance.md#response-cleaning).
 */

/** Kinds whose values `Value.Clean` returns untouched and that never hold an object. */
const SCALARS = new Set(["String", "Number", "Integer", "Boolean", "Null", "Literal", "Undefined", "BigInt"]);

type Schema = TSchema & {
  properties?: Record<string, Schema>;
  additionalProperties?: unknown;
  items?: Schema | Schema[];
  anyOf?: Schema[];
  format?: string;
  $ref?: string;
};

const kindOf = (s: Schema) => (s as { [Kind]?: string })[Kind];

/**
 * Whether a passing closed check proves `Value.Clean` a no-op for this schema: objects whose extra
 * properties it deletes, arrays of such, and unions in which at most one member can hold an object
 * (Clean visits the first member that checks; with two, the one it picks could name fewer
 * properties than the one the closed check matched). Anything else (intersections, records,
 * references, tuples) is cleaned by `Value.Clean` every time.
 */
export function provablyClean(schema: Schema): boolean {
  const kind = kindOf(schema);
  if (kind === undefined || typeof schema.$id === "string") return false;
  if (SCALARS.has(kind) || kind === "Unknown" || kind === "Any") return true;
  if (kind === "Object") {
    if (schema.additionalProperties !== undefined && schema.additionalProperties !== false) return false;
    return Object.values(schema.properties ?? {}).every(provablyClean);
  }
  if (kind === "Array") return !!schema.items && !Array.isArray(schema.items) && provablyClean(schema.items);
  if (kind === "Union") {
    const members = schema.anyOf ?? [];
    return members.every(provablyClean) && members.filter((m) => !SCALARS.has(kindOf(m) as string)).length <= 1;
  }
  return false;
}

/** The schema with every object closed and no string formats (a copy; symbols such as Kind and Optional kept). */
export function closed(schema: Schema): Schema {
  const kind = kindOf(schema);
  if (kind === "Object") {
    const properties = Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, v]) => [k, closed(v)]));
    return { ...schema, properties, additionalProperties: false };
  }
  if (kind === "Array") return { ...schema, items: closed(schema.items as Schema) };
  if (kind === "Union") return { ...schema, anyOf: (schema.anyOf ?? []).map(closed) };
  if (kind === "String" && schema.format !== undefined) {
    const { format: _, ...rest } = schema;
    return rest as Schema;
  }
  return schema;
}

/**
 * A frozen value (`frozen`, a cached answer) that passed a check once passes it again: it cannot have
 * changed. Remembered per check, weakly; other values are checked every time.
 */
export function memoOfFrozen(check: (value: unknown) => boolean): (value: unknown) => boolean {
  const passed = new WeakSet<object>();
  return (value) => {
    if (value === null || typeof value !== "object" || !isFrozenThrough(value)) return check(value);
    if (passed.has(value)) return true;
    const ok = check(value);
    if (ok) passed.add(value);
    return ok;
  };
}

/** `clean` preceded by the closed check when the schema allows it; `clean` itself otherwise. */
export function checkedCleaner<V>(schema: Schema, clean: (value: V) => V): (value: V) => V {
  if (!provablyClean(schema)) return clean;
  let check: ((value: unknown) => boolean) | null = null;
  return (value) => {
    // Compiled on first use, as Elysia compiles a route's validators on its first request.
    if (!check) {
      const compiled = TypeCompiler.Compile(closed(schema));
      check = memoOfFrozen((v) => compiled.Check(v));
    }
    return check(value) ? value : clean(value);
  };
}

const CLEAN = Symbol("clean");
const CHECK = Symbol("check");

/**
 * Installs the cleaner on every TypeCheck given a `Clean` from now on (once; Elysia assigns it when it
 * compiles a route), and remembers which frozen values passed each TypeCheck's `Check` (Elysia checks
 * every response against its schema; a cached answer is the same frozen object each time).
 */
export function installCheckedCleaners() {
  if (Object.getOwnPropertyDescriptor(TypeCheck.prototype, "Clean")) return;
  const check = TypeCheck.prototype.Check;
  TypeCheck.prototype.Check = function (this: TypeCheck<TSchema> & { [CHECK]?: (value: unknown) => boolean }, value: unknown) {
    this[CHECK] ??= memoOfFrozen((v) => check.call(this, v));
    return this[CHECK](value);
  } as typeof check;
  Object.defineProperty(TypeCheck.prototype, "Clean", {
    configurable: true,
    get(this: { [CLEAN]?: unknown }) {
      return this[CLEAN];
    },
    set(this: TypeCheck<TSchema> & { [CLEAN]?: unknown }, clean: ((value: unknown) => unknown) | undefined) {
      this[CLEAN] = typeof clean === "function" ? checkedCleaner(this.Schema() as Schema, clean) : clean;
    },
  });
}
