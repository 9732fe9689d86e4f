import fc from "fast-check";

/** A JSON Schema node of the served document (only the keywords it uses). */
export type Schema = {
  type?: string;
  const?: unknown;
  enum?: unknown[];
  anyOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  patternProperties?: Record<string, Schema>;
  items?: Schema;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  pattern?: string;
  format?: string;
  $ref?: string;
};

/** A stand-in for a real id, resolved against the fixture when the request is sent. */
export class PoolRef {
  constructor(
    readonly name: string,
    readonly pick: number,
  ) {}
  toString() {
    return `PoolRef(${this.name}#${this.pick})`;
  }
}

/** Property names whose strings are ids: they get real ids from the pool as well as generated ones. */
export const idName = (name: string) => {
  const m = /^(.*(?:Id|Key|Code|Token))s?$/.exec(name) ?? /^(id)$/.exec(name);
  return m ? (m[1] as string) : null;
};

// Text that stays valid but is unusual: accents, Hangul, an emoji outside the BMP, RTL override.
const textChar = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(..."abcdefghijklmnopqrstuvwxyzABCXYZ0123456789 -_") },
  { weight: 1, arbitrary: fc.constantFrom("é", "한", "🔥", "\u202e", "ß", "İ", "\u0301") },
);

/** Strings nobody planned for: lone surrogates, NUL and other controls, RTL marks, BOM. */
export const hostileShortString = fc.oneof(
  fc.constantFrom(
    "",
    " ",
    "\u0000",
    "a\u0000b",
    "\ud800",
    "x\udfff",
    "\u202e\u202dtxt.exe",
    "\ufeff",
    "\u0007\u001b[31m",
    "../../etc/passwd",
    "%00",
    "$" + "{jndi:x}",
    "<script>alert(1)</script>",
    "' OR 1=1 --",
    "🔥".repeat(300),
    "NaN",
    "-1",
    "1e309",
    "00000000-0000-0000-0000-000000000000",
    "9007199254740993",
  ),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.integer({ min: 256, max: 2000 }).map((n) => "x".repeat(n)),
);

/** The same and huge ones, for bodies (a URL that long would meet the runtime's header limit first). */
export const hostileString = fc.oneof(
  hostileShortString,
  fc.integer({ min: 256, max: 300_000 }).map((n) => "x".repeat(n)),
);

const isoDate = fc
  .date({ min: new Date("2000-01-01T00:00:00Z"), max: new Date("2040-01-01T00:00:00Z"), noInvalidDate: true })
  .map((d) => d.toISOString());

function stringOf(s: Schema, name: string): fc.Arbitrary<string> {
  const chars = /^ls-chars-(\d+)-(\d+)$/.exec(s.format ?? "");
  if (chars) return fc.string({ unit: textChar, minLength: Number(chars[1]), maxLength: Math.min(Number(chars[2]), 40) });
  switch (s.format) {
    case "ls-email":
    case "email":
      return fc.nat(99999).map((n) => `fuzz${n}@example.com`);
    case "ls-password":
      return fc.constantFrom("Passw0rd!", "abcd1234", "Zz9!Zz9!Zz9!");
    case "ls-display-name":
      return fc.constantFrom("Fuzz", "Kim 민수", "A_b-(c)");
    case "ls-date-time":
    case "date-time":
      return isoDate;
    case "ls-http-url":
      return fc.constantFrom("https://example.com/x", "http://localhost/a?b=1");
    case "ls-link-url":
      return fc.constantFrom("https://example.com/x", "/page");
    case "integer":
      return fc.integer({ min: 0, max: 50 }).map(String);
  }
  if (s.pattern) {
    const min = s.minLength ?? 0;
    const max = s.maxLength ?? 60;
    const re = new RegExp(s.pattern);
    const fits = (v: string) => v.length >= min && v.length <= max;
    try {
      return fc.stringMatching(re).filter(fits);
    } catch {
      // fast-check cannot generate from lookaheads: a path-like sample satisfies those patterns.
      return fc
        .string({ unit: textChar, maxLength: 20 })
        .map((v) => `/${v.replace(/[^a-z0-9]/gi, "")}`)
        .filter((v) => re.test(v) && fits(v));
    }
  }
  const min = s.minLength ?? 0;
  const max = Math.min(s.maxLength ?? min + 30, min + 30);
  if (/email/i.test(name)) return fc.nat(99999).map((n) => `fuzz${n}@example.com`);
  return fc.string({ unit: textChar, minLength: min, maxLength: max });
}

/** Values valid by the schema; strings of id-like names draw real ids from the pool too. */
export function valid(s: Schema, name = "", depth = 0): fc.Arbitrary<unknown> {
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  if (s.anyOf) return fc.oneof(...s.anyOf.map((a) => valid(a, name, depth)));
  switch (s.type) {
    case "null":
      return fc.constant(null);
    case "boolean":
      return fc.boolean();
    case "integer": {
      const min = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : -5);
      const max = s.maximum ?? Math.max(min + 100, 100);
      return fc.oneof(fc.integer({ min, max: Math.min(max, min + 10) }), fc.integer({ min, max }));
    }
    case "number": {
      const min = s.minimum ?? -100;
      const max = s.maximum ?? 1000;
      return fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
    }
    case "string": {
      const base = stringOf(s, name);
      const id = idName(name);
      if (!id) return base;
      return fc.oneof(
        { weight: 6, arbitrary: fc.nat(20).map((n) => new PoolRef(id, n) as unknown) },
        { weight: 1, arbitrary: fc.constant(new PoolRef(`other:${id}`, 0) as unknown) },
        { weight: 2, arbitrary: base },
      );
    }
    case "array": {
      const item = s.items ? valid(s.items, name, depth + 1) : fc.string();
      const minLength = s.minItems ?? 0;
      const maxLength = Math.min(s.maxItems ?? minLength + 3, minLength + 3);
      return s.uniqueItems
        ? fc.uniqueArray(item, { minLength, maxLength, selector: (v) => JSON.stringify(v) })
        : fc.array(item, { minLength, maxLength });
    }
    default: {
      if (!s.properties && !s.patternProperties && typeof s.additionalProperties !== "object") {
        return s.type === "object" ? fc.constant({}) : fc.jsonValue({ maxDepth: 2 });
      }
      const required = new Set(s.required ?? []);
      const props = Object.fromEntries(Object.entries(s.properties ?? {}).map(([k, v]) => [k, valid(v, k, depth + 1)]));
      // Optional fields are left out two times in three: a request with every filter set is rarely valid as a whole.
      const record = fc
        .record(
          Object.fromEntries(
            Object.entries(props).map(([k, a]) => [k, required.has(k) ? a : fc.oneof({ weight: 2, arbitrary: fc.constant(undefined) }, a)]),
          ),
        )
        .map((o) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)));
      const extra = s.patternProperties
        ? Object.values(s.patternProperties)[0]
        : typeof s.additionalProperties === "object"
          ? s.additionalProperties
          : undefined;
      if (!extra) return record;
      return fc
        .tuple(
          record,
          fc.dictionary(fc.string({ unit: textChar, minLength: 1, maxLength: 8 }), valid(extra, "", depth + 1), { maxKeys: 3 }),
        )
        .map(([a, b]) => ({ ...b, ...a }));
    }
  }
}

/** Anything of the wrong shape: wrong types, nulls, hostile strings, deep nesting (up to `depth`). */
const wrongValue = (strings: fc.Arbitrary<string>, depth: number): fc.Arbitrary<unknown> =>
  fc.oneof(
    fc.constant(null),
    fc.constantFrom(0, -1, 1.5, 1e308, -0, true, false, [], {}, [null], { "": null }),
    strings,
    fc.integer({ min: Math.min(100, depth), max: depth }).map((n) => JSON.parse(`${"[".repeat(n)}${"]".repeat(n)}`)),
    fc.integer({ min: Math.min(100, depth), max: depth }).map((n) => JSON.parse(`${'{"a":'.repeat(n)}1${"}".repeat(n)}`)),
    fc.jsonValue({ maxDepth: 3 }),
  );

/** The paths (property names and indexes) of every node of a JSON value. */
function pathsOf(v: unknown, at: (string | number)[] = [], out: (string | number)[][] = []) {
  out.push(at);
  if (Array.isArray(v)) {
    for (const [i, x] of v.entries()) pathsOf(x, [...at, i], out);
  } else if (v && typeof v === "object" && !(v instanceof PoolRef)) for (const [k, x] of Object.entries(v)) pathsOf(x, [...at, k], out);
  return out;
}

function setAt(v: unknown, path: (string | number)[], value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path as [string | number, ...(string | number)[]];
  const copy: any = Array.isArray(v) ? [...v] : { ...(v as object) };
  copy[head] = setAt(copy[head], rest, value);
  return copy;
}

function dropAt(v: unknown, path: (string | number)[]): unknown {
  if (path.length === 0) return v;
  if (path.length === 1) {
    if (Array.isArray(v)) return v.filter((_, i) => i !== path[0]);
    const { [path[0] as string]: _, ...rest } = v as Record<string, unknown>;
    return rest;
  }
  const [head, ...rest] = path as [string | number, ...(string | number)[]];
  const copy: any = Array.isArray(v) ? [...v] : { ...(v as object) };
  copy[head] = dropAt(copy[head], rest);
  return copy;
}

/** A valid value broken in one place: a node replaced, removed, or an extra field added. */
export function invalid(s: Schema, strings = hostileString, depth = 5000): fc.Arbitrary<unknown> {
  return fc
    .tuple(
      valid(s),
      fc.nat(),
      fc.constantFrom("replace", "drop", "extra"),
      wrongValue(strings, depth),
      fc.constantFrom("extra", "__proto__", "constructor", "id", "\u0000", "a".repeat(300)),
    )
    .map(([value, pick, how, wrong, key]) => {
      const paths = pathsOf(value);
      const path = paths[pick % paths.length] as (string | number)[];
      if (how === "drop" && path.length) return dropAt(value, path);
      if (how === "extra") {
        const objects = paths.filter((p) => {
          const node = p.reduce<any>((o, k) => o?.[k], value);
          return node && typeof node === "object" && !Array.isArray(node) && !(node instanceof PoolRef);
        });
        const at = objects[pick % Math.max(objects.length, 1)];
        if (at) {
          const node = at.reduce<any>((o, k) => o?.[k], value);
          return setAt(value, at, { ...node, [key]: wrong });
        }
      }
      return setAt(value, path, wrong);
    });
}
