/**
 * HAProxy's runtime API (the stats socket at level admin): one connection per batch of commands
 * separated by `;`, answered and closed by HAProxy (docs/rules/cluster.md#haproxy).
 */
export async function haproxyCommand(address: string, command: string, timeoutMs = 3_000): Promise<string> {
  // Loaded on first use: a static import loads node:net (and node:stream) at every start (docs/rules/performance.md#start).
  const { connect } = await import("node:net");
  return new Promise((resolve, reject) => {
    const [host = "", port = ""] = address.split(/:(?=\d+$)/);
    const socket = address.startsWith("unix:") ? connect({ path: address.slice(5) }) : connect({ host, port: Number(port) });
    const chunks: Buffer[] = [];
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error(`HAProxy runtime API ${address}: no answer`)));
    socket.on("connect", () => socket.end(`${command}\n`));
    socket.on("data", (c) => chunks.push(Buffer.from(c)));
    socket.on("error", reject);
    socket.on("close", () => resolve(Buffer.concat(chunks).toString("utf8")));
  });
}

/** `show map FILE`: key → value of each entry. */
export async function showMap(address: string, file: string): Promise<Map<string, string>> {
  const out = await haproxyCommand(address, `show map ${file}`);
  if (/unknown map|not found/i.test(out)) throw new Error(`HAProxy knows no map ${file}: ${out.trim()}`);
  const entries = new Map<string, string>();
  for (const line of out.split("\n")) {
    const [, key, value] = line.trim().split(/\s+/);
    if (key && value !== undefined) entries.set(key, value);
  }
  return entries;
}

/** Keys and values are tenant keys and node names: nothing HAProxy's command syntax could misread. */
const SAFE = /^[A-Za-z0-9._-]+$/;

/** Brings the map to `want` with as few commands as differ (set, add, del); returns how many. */
export async function syncMap(address: string, file: string, want: Map<string, string>): Promise<number> {
  const have = await showMap(address, file);
  const commands: string[] = [];
  for (const [key, value] of want) {
    if (!SAFE.test(key) || !SAFE.test(value) || have.get(key) === value) continue;
    commands.push(have.has(key) ? `set map ${file} ${key} ${value}` : `add map ${file} ${key} ${value}`);
  }
  for (const key of have.keys()) if (!want.has(key)) commands.push(`del map ${file} ${key}`);
  // A long batch is sent in slices: one command line has a bounded length.
  for (let i = 0; i < commands.length; i += 100) {
    const out = await haproxyCommand(address, commands.slice(i, i + 100).join(";"));
    if (/unknown|not found|error/i.test(out)) throw new Error(`HAProxy refused a map change: ${out.trim().slice(0, 200)}`);
  }
  return commands.length;
}
