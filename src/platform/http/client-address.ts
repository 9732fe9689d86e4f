import type { Config } from "../../config";
import { isIP } from "../ip";

type Server = { requestIP(r: Request): { address: string } | null } | null | undefined;

/** An address as a number and its bit width; IPv4-mapped IPv6 (::ffff:1.2.3.4) counts as IPv4. */
function parse(address: string): { n: bigint; bits: 32 | 128 } | null {
  const a = address.toLowerCase().startsWith("::ffff:") && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
  const family = isIP(a);
  if (family === 4) return { n: a.split(".").reduce((acc, p) => (acc << 8n) | BigInt(Number(p)), 0n), bits: 32 };
  if (family !== 6) return null;
  const [head = "", tail] = a.split("::");
  const words = (s: string) => (s ? s.split(":") : []);
  const parts =
    tail === undefined ? words(head) : [...words(head), ...Array(8 - words(head).length - words(tail).length).fill("0"), ...words(tail)];
  // Embedded dotted IPv4 other than the mapped form (::1.2.3.4, deprecated) is never matched.
  if (parts.some((p) => p.includes("."))) return null;
  return { n: parts.reduce((acc, p) => (acc << 16n) | BigInt(Number.parseInt(p || "0", 16)), 0n), bits: 128 };
}

/** Whether `address` is one of `ranges` (exact addresses and CIDR blocks, validated at start). */
export function inRanges(address: string, ranges: readonly string[]): boolean {
  const ip = parse(address);
  if (!ip) return false;
  return ranges.some((range) => {
    const [base = "", len] = range.split("/");
    const b = parse(base);
    if (!b || b.bits !== ip.bits) return false;
    const prefix = BigInt(len === undefined ? ip.bits : Number(len));
    const shift = BigInt(ip.bits) - prefix;
    return ip.n >> shift === b.n >> shift;
  });
}

const memo = new WeakMap<Request, string>();

/**
 * The client's address: the socket peer, unless the peer is one of LEARNSPACE_TRUSTED_PROXIES;
 * then X-Forwarded-For is read from the right, skipping trusted proxies, and the first address that
 * is not one is the client. Never believed from any other peer.
 */
export function clientAddress(config: Pick<Config, "trustedProxies">, request: Request, server: Server): string {
  const known = memo.get(request);
  if (known) return known;
  const peer = server?.requestIP(request)?.address ?? "unknown";
  let client = peer;
  if (config.trustedProxies.length && inRanges(peer, config.trustedProxies)) {
    const hops = (request.headers.get("x-forwarded-for") ?? "")
      .split(",")
      .map((h) => h.trim())
      .filter((h) => isIP(h));
    for (let i = hops.length - 1; i >= 0; i--) {
      client = hops[i] as string;
      if (!inRanges(client, config.trustedProxies)) break;
    }
  }
  memo.set(request, client);
  return client;
}
