// Checks an example against its schema in the OpenAPI document as `redocly lint` does with
// `no-invalid-media-type-examples` and `allowAdditionalProperties: false` (docs/rules/api-reference.md#examples).
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";

/** An object schema that lists its properties admits no others, so an example cannot carry stray fields. */
function closed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closed);
  if (!schema || typeof schema !== "object") return schema;
  // `$id`s (the Problem schema's) would rebase the refs inside; the document is one resource here.
  const out = Object.fromEntries(
    Object.entries(schema)
      .filter(([k]) => k !== "$id")
      .map(([k, v]) => [k, k === "example" ? v : closed(v)]),
  );
  if (out.properties && out.additionalProperties === undefined) out.additionalProperties = false;
  return out;
}

/** `valid(schema, value)`: whether `value` fits `schema` of `doc` (`$ref`s to its components resolve). */
export function exampleValidator(doc: { components?: { schemas?: Record<string, unknown> } }) {
  const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
  addFormats(ajv);
  // The server's own formats (src/platform/http/schemas.ts) are checked by the server, not here.
  for (const f of ["binary", "integer", "numeric"]) ajv.addFormat(f, true);
  ajv.addSchema({ $id: "doc", components: closed(doc.components ?? {}) });
  const compiled = new Map<string, ReturnType<typeof ajv.compile>>();
  return (schema: unknown, value: unknown): boolean => {
    const key = JSON.stringify(schema);
    let check = compiled.get(key);
    if (!check) {
      for (const [, f] of key.matchAll(/"format":"(ls-[\w-]+)"/g)) if (f && !ajv.formats[f]) ajv.addFormat(f, true);
      const rebased = JSON.parse(key.replaceAll('"$ref":"#/components/', '"$ref":"doc#/components/'));
      check = ajv.compile(closed(rebased) as object);
      compiled.set(key, check);
    }
    return check(value) as boolean;
  };
}
