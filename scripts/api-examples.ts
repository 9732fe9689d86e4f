// Turns calls recorded by the tests (LEARNSPACE_RECORD_EXAMPLES=<file> bun test …) into the examples of
// the API reference, src/platform/http/openapi-examples.json (docs/rules/api-reference.md#examples).
// Usage: bun scripts/api-examples.ts <calls.jsonl>; then `npm run openapi`.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { exampleValidator } from "./example-validator";

type Call = { method: string; path: string; request?: unknown; status: number; type: string | null; response: unknown };
type Entry = { request?: unknown; responses?: Record<string, unknown> };

const input = process.argv[2];
if (!input || !existsSync(input)) {
  console.error("usage: bun scripts/api-examples.ts <calls.jsonl>");
  process.exit(2);
}
const root = join(import.meta.dir, "..");
const doc = JSON.parse(readFileSync(join(root, "openapi.json"), "utf8"));
const out = join(root, "src", "platform", "http", "openapi-examples.json");
const previous: Record<string, Entry> = existsSync(out) ? JSON.parse(readFileSync(out, "utf8")) : {};
const valid = exampleValidator(doc);

// Literal segments before parameters, so /spaces/email-count wins over /spaces/{spaceId}.
const routes = Object.entries<Record<string, any>>(doc.paths)
  .flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({
      method: method.toUpperCase(),
      op,
      params: (path.match(/\{/g) ?? []).length,
      match: new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{\w+\}/g, "[^/]+")}$`),
    })),
  )
  .sort((a, b) => a.params - b.params);

/** Short enough to read: arrays cut to two items, long strings cut (a post body may be 200,000 characters). */
function trim(value: unknown): unknown {
  if (Array.isArray(value)) return value.slice(0, 2).map(trim);
  if (typeof value === "string") return value.length > 400 ? `${value.slice(0, 400)}…` : value;
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, trim(v)]));
  return value;
}

/** The most telling of the candidates (already trimmed and checked): the largest up to 2,500 characters, else the smallest. */
function pick<T>(candidates: T[]): T | undefined {
  const sized = candidates.map((c) => ({ c, n: JSON.stringify(c).length })).sort((a, b) => a.n - b.n);
  const small = sized.filter((s) => s.n <= 2500);
  return (small.length ? small[small.length - 1] : sized[0])?.c;
}

const calls = new Map<string, Call[]>();
const opsById = new Map<string, any>();
for (const line of readFileSync(input, "utf8").split("\n")) {
  if (!line) continue;
  const call = JSON.parse(line) as Call;
  const r = routes.find((x) => x.method === call.method && x.match.test(call.path));
  if (!r) continue;
  opsById.set(r.op.operationId, r.op);
  calls.set(r.op.operationId, [...(calls.get(r.op.operationId) ?? []), call]);
}

const examples: Record<string, Entry> = { ...previous };
for (const [id, list] of calls) {
  const op = opsById.get(id);
  const entry: Entry = {};
  const body = op.requestBody?.content?.["application/json"]?.schema;
  // The request and the first 2xx answer come from one call, so the example reads as one exchange.
  const success = Object.keys(op.responses).find((s) => s.startsWith("2"));
  const successSchema = success ? op.responses[success].content?.["application/json"]?.schema : undefined;
  const exchanges = list
    .filter((c) => String(c.status) === success && (!body || c.request !== undefined))
    .map((c) => ({ request: body ? trim(c.request) : undefined, response: successSchema ? trim(c.response) : undefined }))
    .filter((x) => (!body || valid(body, x.request)) && (!successSchema || valid(successSchema, x.response)));
  const exchange = pick(exchanges);
  if (exchange) {
    const { request, response } = exchange as { request?: unknown; response?: unknown };
    if (request !== undefined) entry.request = request;
    if (response !== undefined && success) entry.responses = { [success]: response };
  }
  for (const [status, response] of Object.entries<any>(op.responses)) {
    if (status === success) continue;
    const json = response.content?.["application/json"]?.schema;
    const problem = response.content?.["application/problem+json"] ? doc.components.schemas.Problem : undefined;
    const schema = json ?? problem;
    if (!schema) continue;
    const media = json ? "application/json" : "application/problem+json";
    const bodies = list.filter((c) => String(c.status) === status && c.type?.startsWith(media)).map((c) => trim(c.response));
    const chosen = pick(bodies.filter((b) => valid(schema, b)));
    if (chosen !== undefined) entry.responses = { ...entry.responses, [status]: chosen };
  }
  // What this run did not see of the operation stays as recorded before.
  const before = previous[id] ?? {};
  const request = entry.request !== undefined ? entry.request : before.request;
  const responses = { ...before.responses, ...entry.responses };
  if (request !== undefined || Object.keys(responses).length) examples[id] = { ...(request !== undefined ? { request } : {}), responses };
}
const sorted = Object.fromEntries(
  Object.keys(examples)
    .sort()
    .map((k) => [k, examples[k]]),
);
writeFileSync(out, `${JSON.stringify(sorted, null, 1)}\n`);
console.log(`${Object.keys(sorted).length} operations with examples (${calls.size} called in this run) → ${out}`);
