// The per-request /metrics series are counted in plain numbers and printed on scrape
// (docs/rules/performance.md#per-request-work): the text must be exactly what prom-client's own Counter and
// Histogram print for the same requests.
import { expect, test } from "bun:test";
import Counter from "prom-client/lib/counter";
import Histogram from "prom-client/lib/histogram";
import Registry from "prom-client/lib/registry";
import { requestSeries } from "../src/platform/http/metrics";

/** What the series were before: prom-client's Counter and Histogram fed on every request. */
function promClientSeries(registry: Registry) {
  const requests = new Counter({
    name: "learnspace_http_requests_total",
    help: "HTTP requests answered, by method, route pattern and status.",
    labelNames: ["method", "route", "status"] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: "learnspace_http_request_duration_seconds",
    help: "Time from request to response, by route pattern.",
    labelNames: ["route"] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  return (method: string, route: string, status: number | string, seconds: number) => {
    requests.labels(method, route, String(status)).inc();
    duration.labels(route).observe(seconds);
  };
}

test("the request series print what prom-client's Counter and Histogram print", async () => {
  const before = new Registry();
  const after = new Registry();
  const old = promClientSeries(before);
  const { observe } = requestSeries(after);
  expect(await after.metrics()).toBe(await before.metrics());
  const routes = ["/healthz", "/api/v1/tenant", "/api/v1/spaces/:spaceId", "unmatched"];
  const methods = ["GET", "POST", "DELETE"];
  const statuses: (number | string)[] = [200, 201, 204, 400, 404, 500, "200"];
  // Bounds themselves, values between and past the last bound (+Inf only), tiny and zero durations.
  const edges = [0, 1e-7, 0.001, 0.0010001, 0.0025, 0.004, 0.01, 0.3, 1, 2.5, 9.99, 10, 10.5, 120];
  // xorshift32: the same sequence every run.
  let seed = 2463534242;
  const next = (n: number) => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) % n;
  };
  for (let i = 0; i < 3000; i++) {
    const args = [
      methods[next(methods.length)] as string,
      routes[next(routes.length)] as string,
      statuses[next(statuses.length)] as number | string,
      i % 3 === 0 ? (edges[next(edges.length)] as number) : next(100_000) / 1_000_000,
    ] as const;
    old(...args);
    observe(...args);
  }
  const text = await after.metrics();
  expect(text).toBe(await before.metrics());
  expect(text).toContain('learnspace_http_request_duration_seconds_bucket{le="+Inf",route="/healthz"}');
  expect(text).toMatch(/learnspace_http_requests_total\{method="GET",route="\/api\/v1\/tenant",status="200"\} \d+/);
});
