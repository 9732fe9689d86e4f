// A memory probe preloaded into a server run from source (bench only, never shipped):
//   HEAP_PROBE_OUT=/tmp/probe bun --preload ./bench/heap-probe.ts src/main.ts serve …
// Every 20 ms it reads the process's RSS; at each new high-water mark (+1 MiB) it appends the JSC heap's
// figures (bun:jsc heapStats) to $HEAP_PROBE_OUT/peaks.jsonl, so the heap AT the peak is known, not after
// a collection. With HEAP_PROBE_SNAPSHOT_MIB=N it writes one heap snapshot the first time RSS reaches N MiB
// (snapshot-<rss>.json, JSC format: `bun bench/heap-probe.ts summarize <file>` sums it by class); SIGUSR2
// writes one at any time. Nothing here collects garbage: a snapshot does (it walks the heap), so only
// the first one is taken at the peak.
// HEAP_PROBE_TYPES=1 adds the 40 most numerous cell types to each line (cells allocated since the last
// collection count too: garbage included). HEAP_PROBE_EDEN_MS=N runs an eden collection every N ms and
// appends the per-request cell types left after it to eden.jsonl: what survives a young collection.
// `bun bench/heap-probe.ts smaps FILE…` sums /proc/PID/smaps copies (bench/tenants.ts --trace) by mapping.

import { heapStats } from "bun:jsc";
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const MiB = 1048576;

function summarize(file: string) {
  const snap = JSON.parse(readFileSync(file, "utf8")) as { nodes: number[]; nodeClassNames: string[] };
  // JSC snapshot: nodes are [id, size, classNameIndex, flags, (labelIndex, cellAddress, wrappedAddress)?] tuples.
  const width = snap.nodes.length % 7 === 0 && (snap as { type?: string }).type === "GCDebugging" ? 7 : 4;
  const byClass = new Map<string, { count: number; bytes: number }>();
  let total = 0;
  for (let i = 0; i < snap.nodes.length; i += width) {
    const size = snap.nodes[i + 1] as number;
    const name = snap.nodeClassNames[snap.nodes[i + 2] as number] ?? "?";
    const e = byClass.get(name) ?? { count: 0, bytes: 0 };
    e.count++;
    e.bytes += size;
    byClass.set(name, e);
    total += size;
  }
  const top = [...byClass].sort((a, b) => b[1].bytes - a[1].bytes).slice(0, 25);
  console.log(`total ${(total / MiB).toFixed(1)} MiB in ${snap.nodes.length / width} cells`);
  for (const [name, e] of top) console.log(`${(e.bytes / MiB).toFixed(2).padStart(8)} MiB ${String(e.count).padStart(8)}  ${name}`);
}

/** Resident MiB of a /proc/PID/smaps copy by mapping: the binary's own sections, libraries, and anonymous regions by size. */
function smaps(file: string) {
  const byKind = new Map<string, number>();
  let kind = "";
  let total = 0;
  for (const line of readFileSync(file, "utf8").split("\n")) {
    const m = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \d+\s*(.*)$/.exec(line);
    if (m) {
      const mib = (Number.parseInt(m[2] as string, 16) - Number.parseInt(m[1] as string, 16)) / MiB;
      const path = (m[4] as string).trim();
      kind = path
        ? `${path.split("/").at(-1)} ${m[3]}`
        : `anonymous ${m[3]}, ${mib >= 1024 ? (m[3]?.includes("x") ? "≥ 1 GiB: JIT code" : "≥ 1 GiB: the malloc arena") : mib >= 1 ? "1 MiB–1 GiB" : "< 1 MiB"}`;
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) {
      byKind.set(kind, (byKind.get(kind) ?? 0) + Number(rss[1]) / 1024);
      total += Number(rss[1]) / 1024;
    }
  }
  console.log(`${file}: RSS ${total.toFixed(1)} MiB`);
  for (const [k, mib] of [...byKind].sort((a, b) => b[1] - a[1]).slice(0, 12)) console.log(`${mib.toFixed(1).padStart(8)} MiB  ${k}`);
}

if (import.meta.main && process.argv[2] === "summarize") {
  summarize(process.argv[3] as string);
} else if (import.meta.main && process.argv[2] === "smaps") {
  for (const file of process.argv.slice(3)) smaps(file);
} else {
  const out = process.env.HEAP_PROBE_OUT ?? "/tmp/heap-probe";
  const snapshotAt = Number(process.env.HEAP_PROBE_SNAPSHOT_MIB ?? 0) * MiB;
  mkdirSync(out, { recursive: true });
  const t0 = performance.now();
  let high = 0;
  let snapped = false;
  const snapshot = (rss: number) => {
    const file = join(out, `snapshot-${Math.round(rss / MiB)}.json`);
    writeFileSync(file, JSON.stringify(Bun.generateHeapSnapshot()));
    appendFileSync(join(out, "peaks.jsonl"), `${JSON.stringify({ snapshot: file, rssMiB: rss / MiB })}\n`);
  };
  setInterval(() => {
    const rss = process.memoryUsage.rss();
    if (rss < high + MiB) return;
    high = rss;
    const s = heapStats();
    const m = process.memoryUsage();
    appendFileSync(
      join(out, "peaks.jsonl"),
      `${JSON.stringify({
        ms: Math.round(performance.now() - t0),
        rssMiB: +(rss / MiB).toFixed(1),
        heapSizeMiB: +(s.heapSize / MiB).toFixed(1),
        heapCapacityMiB: +(s.heapCapacity / MiB).toFixed(1),
        extraMemoryMiB: +(s.extraMemorySize / MiB).toFixed(1),
        objects: s.objectCount,
        externalMiB: +(m.external / MiB).toFixed(1),
        statements: s.objectTypeCounts.SQLStatement ?? 0,
        databases: s.objectTypeCounts.Database ?? s.objectTypeCounts.SQLiteDatabase ?? 0,
        ...(process.env.HEAP_PROBE_TYPES
          ? {
              types: Object.fromEntries(
                Object.entries(s.objectTypeCounts)
                  .sort((a, b) => b[1] - a[1])
                  .slice(0, 40),
              ),
            }
          : {}),
      })}\n`,
    );
    if (snapshotAt && !snapped && rss >= snapshotAt) {
      snapped = true;
      snapshot(rss);
    }
  }, 20).unref();
  process.on("SIGUSR2", () => snapshot(process.memoryUsage.rss()));
  const edenMs = Number(process.env.HEAP_PROBE_EDEN_MS ?? 0);
  if (edenMs) {
    const { edenGC } = require("bun:jsc");
    const perRequest = ["BunRequest", "Response", "Headers", "Immediate", "AsyncContextFrame", "Set", "Promise", "SQLStatement"];
    setInterval(() => {
      edenGC();
      const s = heapStats();
      const line = {
        ms: Math.round(performance.now() - t0),
        rssMiB: +(process.memoryUsage.rss() / MiB).toFixed(1),
        heapSizeMiB: +(s.heapSize / MiB).toFixed(1),
        extraMemoryMiB: +(s.extraMemorySize / MiB).toFixed(1),
        ...Object.fromEntries(perRequest.map((k) => [k, s.objectTypeCounts[k] ?? 0])),
      };
      appendFileSync(join(out, "eden.jsonl"), `${JSON.stringify(line)}\n`);
    }, edenMs).unref();
  }
}
