import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { Elysia } from "elysia";
// Not the package index, which loads much more at start (docs/rules/performance.md#start).
import Counter from "prom-client/lib/counter";
import Gauge from "prom-client/lib/gauge";
import Registry from "prom-client/lib/registry";
import { nodeCrypto } from "../crypto";
import { tenantCount } from "../db/registry";
import { outboxPending } from "../mail/mailer";
import type { ReplicaFileStatus } from "../replica/supervisor";
import type { Runtime } from "../runtime";
import { clientAddress, inRanges } from "./client-address";
import { notFound, unauthenticated } from "./errors";
import type { ResponseObserver } from "./plugin";

const size = (path: string) => (existsSync(path) ? statSync(path).size : 0);
// The database files and their WALs; -shm is a memory map of the WAL index, not data.
const dirBytes = (dir: string) =>
  existsSync(dir) ? readdirSync(dir).reduce((n, f) => (f.endsWith("-shm") ? n : n + size(join(dir, f))), 0) : 0;
const sameSecret = (a: string, b: string) => a.length === b.length && nodeCrypto().timingSafeEqual(Buffer.from(a), Buffer.from(b));
const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;

/**
 * The process series docs/operating.md#monitoring names, read when scraped. Not prom-client's collectDefaultMetrics: its GC
 * observer and event-loop-delay sampler cost the tenant read ~10 % of its throughput (bench/metrics.ts).
 */
function processMetrics(registry: Registry) {
  const startSeconds = Math.round(Date.now() / 1000 - process.uptime());
  new Gauge({
    name: "process_resident_memory_bytes",
    help: "Resident memory size in bytes.",
    registers: [registry],
    collect() {
      this.set(process.memoryUsage.rss());
    },
  });
  new Counter({
    name: "process_cpu_seconds_total",
    help: "Total user and system CPU time spent in seconds.",
    registers: [registry],
    collect() {
      const { user, system } = process.cpuUsage();
      this.reset();
      this.inc((user + system) / 1e6);
    },
  });
  new Gauge({
    name: "process_start_time_seconds",
    help: "Start time of the process since unix epoch in seconds.",
    registers: [registry],
    collect() {
      this.set(startSeconds);
    },
  });
}

/**
 * Replication lag per file and the last successful sync (docs/rules/replication.md#lag), read from
 * `serve`'s Litestream when scraped; no series when replication is off.
 */
function replicationMetrics(registry: Registry, rt: Runtime) {
  const perFile = (name: string, help: string, value: (f: ReplicaFileStatus) => number | null) =>
    new Gauge({
      name,
      help,
      labelNames: ["file"] as const,
      registers: [registry],
      async collect() {
        this.reset();
        for (const f of (await rt.replication?.status()) ?? []) {
          const v = value(f);
          if (v !== null) this.set({ file: f.name }, v);
        }
      },
    });
  perFile(
    "learnspace_replica_lag_seconds",
    "Seconds since the last sync of a file that has writes not yet in the replica; 0 when it has all.",
    (f) => f.lagSeconds,
  );
  perFile("learnspace_replica_behind_bytes", "WAL bytes of a file written locally and not yet in the replica.", (f) => f.behindBytes);
  perFile(
    "learnspace_replica_rpo_seconds",
    "The RPO the file gets from the running Litestream configuration: LEARNSPACE_REPLICA_SYNC when written lately, more when cold.",
    (f) => f.rpoSeconds,
  );
  perFile(
    "learnspace_replica_last_sync_timestamp_seconds",
    "When Litestream last wrote a snapshot or WAL segment of the file to the replica.",
    (f) => (f.lastSyncAt === null ? null : f.lastSyncAt / 1000),
  );
  new Gauge({
    name: "learnspace_replica_up",
    help: "1 while serve's Litestream runs; absent when LEARNSPACE_REPLICA_URL is unset.",
    registers: [registry],
    collect() {
      this.reset();
      if (rt.replication) this.set(rt.replication.pid() ? 1 : 0);
    },
  });
  new Gauge({
    name: "learnspace_replica_restarts",
    help: "Times serve restarted Litestream (a new tenant file, or Litestream exited).",
    registers: [registry],
    collect() {
      this.reset();
      if (rt.replication) this.set(rt.replication.restarts());
    },
  });
  // Litestream's CPU floor (docs/rules/replication.md#scheduling).
  new Gauge({
    name: "learnspace_replica_priority_normal",
    help: "1 while Litestream runs at normal priority (SCHED_OTHER: raised by the CPU floor, or no privilege for SCHED_IDLE), 0 under SCHED_IDLE.",
    registers: [registry],
    collect() {
      this.reset();
      if (rt.replication) this.set(rt.replication.priority().level === "normal" ? 1 : 0);
    },
  });
  new Gauge({
    name: "learnspace_replica_priority_raises",
    help: "Times the CPU floor raised Litestream from SCHED_IDLE because a file's oldest unsynced write neared its RPO.",
    registers: [registry],
    collect() {
      this.reset();
      if (rt.replication) this.set(rt.replication.priority().raises);
    },
  });
}

const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

type Labels = Record<string, string | number>;
type Sample = { labels: Labels; value: number; metricName?: string };

/**
 * The per-request series (requests by method/route/status, duration by route), counted in plain
 * numbers per request and handed to prom-client only when scraped (docs/rules/performance.md#per-request-work):
 * prom-client's `inc`/`observe` hash the label object on every call, even on a cached child. The
 * text is the one prom-client's Counter and Histogram print (same names, labels, order and values:
 * test/metrics-series.test.ts compares them).
 */
export function requestSeries(registry: Registry) {
  // Found per request by route, then method, then status: no key string built and hashed per request.
  // `counts` keeps the series in the order they first came, which is the order prom-client prints.
  type Count = { labels: Labels; n: number };
  const counts: Count[] = [];
  const durations = new Map<
    string,
    { buckets: number[]; sum: number; count: number; byMethod: Map<string, Map<number | string, Count>> }
  >();
  new Counter({
    name: "learnspace_http_requests_total",
    help: "HTTP requests answered, by method, route pattern and status.",
    labelNames: ["method", "route", "status"] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const { labels, n } of counts) this.inc(labels, n);
    },
  });
  const name = "learnspace_http_request_duration_seconds";
  const histogram = {
    name,
    help: "Time from request to response, by route pattern.",
    type: "histogram",
    aggregator: "sum",
    get() {
      const values: Sample[] = [];
      for (const [route, d] of durations) {
        let acc = 0;
        DURATION_BUCKETS.forEach((le, i) => {
          acc += d.buckets[i] as number;
          values.push({ labels: { le, route }, value: acc, metricName: `${name}_bucket` });
        });
        values.push({ labels: { le: "+Inf", route }, value: d.count, metricName: `${name}_bucket` });
        values.push({ labels: { route }, value: d.sum, metricName: `${name}_sum` });
        values.push({ labels: { route }, value: d.count, metricName: `${name}_count` });
      }
      return { name, help: histogram.help, type: "histogram", values, aggregator: "sum" };
    },
  };
  registry.registerMetric(histogram as unknown as Parameters<Registry["registerMetric"]>[0]);
  return {
    observe(method: string, route: string, status: number | string, seconds: number) {
      let d = durations.get(route);
      if (!d) {
        d = { buckets: DURATION_BUCKETS.map(() => 0), sum: 0, count: 0, byMethod: new Map() };
        durations.set(route, d);
      }
      let byStatus = d.byMethod.get(method);
      if (!byStatus) {
        byStatus = new Map();
        d.byMethod.set(method, byStatus);
      }
      // 200 and "200" are one series, as they were one label value.
      const count = byStatus.get(status) ?? byStatus.get(String(status));
      if (count) count.n++;
      else {
        const created = { labels: { method, route, status: String(status) }, n: 1 };
        byStatus.set(status, created);
        byStatus.set(String(status), created);
        counts.push(created);
      }
      // A duration above the last bound counts only in +Inf (count), as in prom-client.
      for (let i = 0; i < DURATION_BUCKETS.length; i++) {
        if (seconds <= (DURATION_BUCKETS[i] as number)) {
          (d.buckets[i] as number)++;
          break;
        }
      }
      d.sum += seconds;
      d.count++;
    },
  };
}

/** The series of docs/operating.md#monitoring in one registry (never prom-client's global one: tests start many servers). */
function createRegistry(rt: Runtime) {
  const registry = new Registry();
  processMetrics(registry);
  replicationMetrics(registry, rt);
  const series = requestSeries(registry);
  const dataDir = rt.config.dataDir;
  new Gauge({
    name: "learnspace_tenant_handles_open",
    help: "Tenant files open in the handle cache.",
    registers: [registry],
    collect() {
      this.set(rt.tenants.openCount());
    },
  });
  new Gauge({
    name: "learnspace_tenants",
    help: "Tenants in the platform registry.",
    registers: [registry],
    collect() {
      this.set(tenantCount(rt.platform.db));
    },
  });
  new Gauge({
    name: "learnspace_outbox_pending",
    help: "Messages waiting to be delivered over SMTP (retried with backoff); 0 without SMTP.",
    registers: [registry],
    collect() {
      this.set(outboxPending(rt));
    },
  });
  // What the file collector did (docs/rules/storage.md#file-collector).
  const collected = rt.fileCollection;
  new Counter({
    name: "learnspace_files_collected_total",
    help: "Stored files the file collector deleted (pending uploads never finished, attachments no record keeps).",
    registers: [registry],
    collect() {
      this.reset();
      this.inc(collected.removedFiles);
    },
  });
  new Counter({
    name: "learnspace_files_collected_bytes_total",
    help: "Bytes the file collector deleted.",
    registers: [registry],
    collect() {
      this.reset();
      this.inc(collected.removedBytes);
    },
  });
  new Gauge({
    name: "learnspace_files_unreferenced",
    help: "Ready files no record attaches, kept until their grace period ends (at the collector's last pass).",
    registers: [registry],
    collect() {
      this.set(collected.waiting);
    },
  });
  new Gauge({
    name: "learnspace_file_collector_last_run_seconds",
    help: "When the file collector last finished a pass (Unix seconds; 0 = not yet).",
    registers: [registry],
    collect() {
      this.set((collected.lastRunAt ?? 0) / 1000);
    },
  });
  new Gauge({
    name: "learnspace_sqlite_bytes",
    help: "Bytes of the SQLite files with their WALs: the platform file and all tenant files.",
    labelNames: ["file"] as const,
    registers: [registry],
    collect() {
      const platform = join(dataDir, "platform.sqlite");
      this.set({ file: "platform" }, size(platform) + size(`${platform}-wal`));
      this.set({ file: "tenants" }, dirBytes(join(dataDir, "tenants")));
    },
  });
  return { registry, observe: series.observe };
}

/**
 * A loopback client by the address after LEARNSPACE_TRUSTED_PROXIES (docs/rules/trust.md#metrics):
 * the proxy's own loopback peer address never counts, so a request relayed by nginx is not local.
 */
function fromLoopback(rt: Runtime, request: Request, server: Parameters<typeof clientAddress>[2]) {
  const peer = server?.requestIP(request)?.address ?? "";
  const client = clientAddress(rt.config, request, server);
  const relayed = rt.config.trustedProxies.length > 0 && inRanges(peer, rt.config.trustedProxies);
  return LOOPBACK.test(client) && !(relayed && client === peer);
}

/**
 * GET /metrics (Prometheus text) and the observer that feeds the per-request series (given to
 * httpPlugin, which already times every request). With LEARNSPACE_METRICS_TOKEN set the bearer
 * token is needed; unset, only loopback clients see it and others get 404.
 */
export function createMetrics(rt: Runtime) {
  const { registry, observe } = createRegistry(rt);
  const plugin = new Elysia({ name: "learnspace.metrics" }).get(
    "/metrics",
    async ({ request, server }) => {
      const token = rt.config.metricsToken;
      if (token) {
        if (!sameSecret(request.headers.get("authorization") ?? "", `Bearer ${token}`)) throw unauthenticated();
      } else if (!fromLoopback(rt, request, server)) {
        throw notFound();
      }
      return new Response(await registry.metrics(), { headers: { "content-type": registry.contentType } });
    },
    { detail: { hide: true } },
  );
  // Unmatched paths share one label: a raw path would grow the series without bound.
  const observer: ResponseObserver = (method, route, status, seconds) => observe(method, route || "unmatched", status, seconds);
  return { plugin, observe: observer };
}
