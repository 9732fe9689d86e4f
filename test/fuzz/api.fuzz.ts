/**
 * Property-based fuzzing of every operation of the served openapi.json (issue 7, item 1). Kept out
 * of `npm test` (the file name has no `.test`): run it with `npm run fuzz` (bounded, fixed seed, in
 * CI) or `npm run fuzz:long` (FUZZ_RUNS, FUZZ_SEED). FUZZ_OPS=opA,opB limits it to some operations.
 *
 * For each operation, each generated request (path values, query and body valid by the schema or
 * broken: wrong types, huge strings, deep nesting, lone surrogates, NUL, RTL marks, nulls, extra
 * fields) is sent anonymously, as a plain member and as the owner. Properties: never a 5xx; every
 * error is problem+json with a code of docs/rules/errors.md#codes; a refused request leaves every table of the
 * platform file and of both tenants as it was; a 2xx body validates against the declared schema
 * (objects closed: an undeclared field fails too).
 *
 * Left out on purpose: URLs over the runtime's 16 KiB request-head limit (Bun answers a bare 431
 * before the app sees the request, so path and query strings stay under 2,000 characters), and
 * errors[] on INVALID_CODE (see the check below).
 */
import { expect, test } from "bun:test";
import fc from "fast-check";
import { useServer } from "../helpers/server";
import { hostileShortString, invalid, PoolRef, type Schema, valid } from "./arbitraries";
import { CODES, responseValidators, writeProbe } from "./checks";
import { buildFixture, fixtureIntact, harvest } from "./fixture";
import { type Input, type Op, operations, type Param, requestOf } from "./requests";

const SEED = process.env.FUZZ_SEED === "random" ? Date.now() % 2 ** 31 : Number(process.env.FUZZ_SEED ?? 20261125);
const RUNS = Number(process.env.FUZZ_RUNS ?? 16);
const ONLY = process.env.FUZZ_OPS ? new Set(process.env.FUZZ_OPS.split(",")) : null;

const api = useServer();

type Caller = "anon" | "member" | "owner";
/** A JSON body just over the 4 MiB limit (docs/rules/errors.md#body-size). */
const OVER_LIMIT = JSON.stringify({ text: "x".repeat(4 * 1024 * 1024) });

const objectOf = (params: Param[]): Schema => ({
  type: "object",
  properties: Object.fromEntries(params.map((p) => [p.name, p.schema])),
  required: params.filter((p) => p.required).map((p) => p.name),
});

function inputOf(op: Op): fc.Arbitrary<Input> {
  const pathParams = op.params.filter((p) => p.in === "path");
  const queryParams = op.params.filter((p) => p.in === "query");
  const path = fc.record(
    Object.fromEntries(
      pathParams.map((p) => [
        p.name,
        fc.oneof(
          { weight: 6, arbitrary: fc.nat(20).map((n) => new PoolRef(p.name, n) as unknown) },
          { weight: 1, arbitrary: fc.constant(new PoolRef(`other:${p.name}`, 0) as unknown) },
          { weight: 2, arbitrary: valid(p.schema).filter((v) => v !== "") },
          { weight: 1, arbitrary: hostileShortString.filter((v) => v !== "") },
        ),
      ]),
    ),
  );
  const querySchema = objectOf(queryParams);
  const query = queryParams.length ? fc.oneof(valid(querySchema), invalid(querySchema, hostileShortString, 20)) : fc.constant({});
  const rawQuery = fc.oneof(
    { weight: 8, arbitrary: fc.constant("") },
    { weight: 1, arbitrary: fc.constantFrom("%", "%ff%fe", "%ED%A0%80", "a=1&a=2&a=3", "%00=%00", "cursor=%E2%80%AE", "__proto__=1") },
  );
  const raw = fc.record({
    kind: fc.constant("raw" as const),
    text: fc.constantFrom(
      "",
      "{",
      '{"a":',
      "null",
      "[]",
      "\u0000",
      "\ufeff{}",
      '{"a":1}',
      "x".repeat(70_000),
      '{"__proto__":{"x":1}}',
      OVER_LIMIT,
    ),
    type: fc.constantFrom("application/json", "text/plain", "application/x-www-form-urlencoded", "application/json; charset=latin1"),
  });
  const schema = op.body?.schema;
  const json = (v: fc.Arbitrary<unknown>) => v.map((value) => ({ kind: "json" as const, value }));
  const body: fc.Arbitrary<Input["body"]> =
    op.method === "get"
      ? fc.constant({ kind: "none" as const })
      : schema
        ? fc.oneof(
            { weight: 4, arbitrary: json(valid(schema)) },
            { weight: 4, arbitrary: json(invalid(schema)) },
            { weight: 1, arbitrary: raw },
          )
        : fc.oneof({ weight: 6, arbitrary: fc.constant({ kind: "none" as const }) }, { weight: 1, arbitrary: raw });
  const anonAuth = fc.oneof(
    { weight: 6, arbitrary: fc.constant(null) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        "Bearer ",
        "Bearer x.y.z",
        "Basic YTpi",
        "Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.",
        `Bearer ${"a".repeat(8000)}`,
      ),
    },
  );
  return fc.record({ path, query, rawQuery, body, anonAuth });
}

const stats = { succeeded: new Set<string>(), digestMs: 0, requests: 0, rebuilds: 0, byStatus: new Map<number, number>() };

test(
  "every operation of the served openapi.json holds its properties under generated input",
  async () => {
    const started = performance.now();
    let serverError: string | undefined;
    // The server is quiet in tests; keep the stack of a 500 to name the defect.
    api.server.rt.log = (line: any) => {
      if (line.level === "error") serverError = String(line.error).split("\n").slice(0, 6).join("\n");
    };
    const doc = (await api.call("GET", "/openapi.json")).body;
    const ops = operations(doc, ONLY);
    const validator = responseValidators(doc);
    const itemParamOf = (path: string) => {
      const child = Object.keys(doc.paths).find((p) => p.startsWith(`${path}/{`) && p.split("/").length === path.split("/").length + 1);
      return child ? /\{(\w+)\}$/.exec(child)?.[1] : undefined;
    };
    const paramNames = new Set(ops.flatMap((o) => o.params.filter((p) => p.in === "path").map((p) => p.name)));
    let fx = await buildFixture(api);
    const probe = writeProbe(api.server);
    const failures: string[] = [];

    async function send(op: Op, caller: Caller, input: Input) {
      const req = requestOf(fx, op, input);
      const token = caller === "anon" ? undefined : fx[caller].token;
      if (caller === "anon" && input.anonAuth) req.headers.authorization = input.anonAuth;
      const tenants = [fx.owner.tenantId, fx.other.tenantId];
      let t0 = performance.now();
      const before = probe.state(tenants);
      stats.digestMs += performance.now() - t0;
      serverError = undefined;
      const res = await api.call(op.method.toUpperCase(), req.url, { token, headers: req.headers, body: req.body }).catch((e: Error) => {
        throw new Error(
          `no answer: ${e.message}\n  ${caller} ${op.method.toUpperCase()} ${req.url.slice(0, 300)}\n  body sent: ${(req.body ?? "").slice(0, 400)}`,
        );
      });
      stats.requests++;
      stats.byStatus.set(res.status, (stats.byStatus.get(res.status) ?? 0) + 1);
      if (res.status < 400) stats.succeeded.add(op.id);
      const where = `${caller} ${op.method.toUpperCase()} ${req.url.slice(0, 300)} → ${res.status}`;
      const fail = (why: string): never => {
        throw new Error(
          `${why}\n  ${where}\n  body sent: ${(req.body ?? "").slice(0, 400)}\n  answer: ${JSON.stringify(res.body)?.slice(0, 600)}${serverError ? `\n  server: ${serverError}` : ""}`,
        );
      };
      const type = res.headers.get("content-type") ?? "";
      const declared = op.responses[String(res.status)];
      if (res.status >= 500 && !(res.status === 503 && res.body?.code === "PROVIDER_UNAVAILABLE")) fail("5xx");
      if (!declared) fail(`status ${res.status} is not declared`);
      if (res.status >= 400) {
        if (!type.startsWith("application/problem+json")) fail(`error is not problem+json (${type})`);
        if (!CODES[res.status]?.includes(res.body?.code)) fail(`code ${res.body?.code} is not an errors.md code of ${res.status}`);
        const check = validator(op.path, op.method, String(res.status), "application/problem+json");
        if (!check(res.body) || res.body.status !== res.status) fail(`problem body invalid: ${JSON.stringify(check.errors)}`);
        if (res.body.message !== res.body.detail) fail("problem message does not copy detail");
        const listed = Array.isArray(res.body.errors) && res.body.errors.length > 0;
        // INVALID_CODE names the wrong field on purpose in spaces and auth (their tests say so), though
        // docs/rules/errors.md#problem-body keeps errors[] for validation: reported as a contract question, not checked here.
        const named = ["VALIDATION_FAILED", "UNKNOWN_SORT_FIELD"].includes(res.body.code);
        if (res.body.code !== "INVALID_CODE" && named !== listed) fail("errors[] only and always with validation");
        t0 = performance.now();
        const after = probe.state(tenants);
        stats.digestMs += performance.now() - t0;
        if (after !== before) {
          // Background work (the notification scheduler's tick, similarity checks) may write between the
          // two digests: a refused request is blamed only if sending it again writes again.
          const again = probe.state(tenants);
          const retry = await api.call(op.method.toUpperCase(), req.url, { token, headers: req.headers, body: req.body });
          if (retry.status === res.status && probe.state(tenants) !== again) fail("a refused request wrote");
        }
        return;
      }
      const content = declared.content ?? {};
      if (content["application/json"]) {
        if (!type.startsWith("application/json")) fail(`2xx is ${type}, declared application/json`);
        const check = validator(op.path, op.method, String(res.status), "application/json");
        if (!check(res.body)) fail(`response does not match its schema: ${JSON.stringify(check.errors?.slice(0, 3))}`);
        harvest(fx.add, res.body, itemParamOf(op.path), paramNames);
      } else if (Object.keys(content).length === 0 && res.status === 204 && res.body !== null) {
        fail("204 with a body");
      }
    }

    for (const op of ops) {
      const opSeed = SEED ^ Number(Bun.hash(op.id) % 0x7fffffffn);
      const details = await fc.check(
        fc.asyncProperty(inputOf(op), async (input) => {
          for (const caller of ["anon", "member", "owner"] as const) await send(op, caller, input);
        }),
        { seed: opSeed, numRuns: RUNS, endOnFailure: true },
      );
      if (details.failed) {
        const error = (details.errorInstance as Error | undefined)?.message ?? String(details.errorInstance);
        failures.push(
          `${op.id}: ${error}\n  counterexample: ${fc.stringify(details.counterexample).slice(0, 1500)}\n  replay: FUZZ_SEED=${SEED} FUZZ_OPS=${op.id} FUZZ_RUNS=${RUNS} npm run fuzz  (fast-check seed ${details.seed}, path "${details.counterexamplePath}")`,
        );
      }
      if (!(await fixtureIntact(api, fx))) {
        fx = await buildFixture(api);
        stats.rebuilds++;
      }
    }

    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const statuses = [...stats.byStatus].sort(([a], [b]) => a - b).map(([s, n]) => `${s}:${n}`);
    console.log(
      `fuzz: seed ${SEED}, ${RUNS} runs × 3 callers, ${ops.length} operations, ${stats.requests} requests, ${stats.rebuilds} fixture rebuilds, ${seconds} s (${probe.digests} table digests, ${(stats.digestMs / 1000).toFixed(1)} s); statuses ${statuses.join(" ")}`,
    );
    const unreached = ops.filter((o) => !stats.succeeded.has(o.id)).map((o) => o.id);
    console.log(`fuzz: ${ops.length - unreached.length} operations answered 2xx/3xx at least once; never: ${unreached.join(" ")}`);
    for (const f of failures) console.log(`\nFUZZ FAILURE ${f}`);
    expect(failures.map((f) => f.split("\n")[0])).toEqual([]);
  },
  60 * 60 * 1000,
);
