// Fetches the server makes because a tenant named a URL (docs/rules/trust.md#server-side-fetches).

import { networkInterfaces } from "node:os";
import { isIP } from "../ip";
import { inRanges } from "./client-address";

/**
 * Addresses no tenant-named fetch may reach: the IANA special-purpose registries (RFC 6890 and
 * successors) for IPv4 and IPv6 — "this network", private, shared (CGN), loopback, link-local,
 * documentation, benchmarking, multicast, reserved, unique-local, NAT64 and 6to4/Teredo (they embed
 * an IPv4 address that may be private). An IPv4-mapped address written dotted is judged as its IPv4
 * address; written in hex (as URLs normalise it) it is refused.
 */
const NOT_PUBLIC = [
  "0.0.0.0/8",
  "10.0.0.0/8",
  "100.64.0.0/10",
  "127.0.0.0/8",
  "169.254.0.0/16",
  "172.16.0.0/12",
  "192.0.0.0/24",
  "192.0.2.0/24",
  "192.88.99.0/24",
  "192.168.0.0/16",
  "198.18.0.0/15",
  "198.51.100.0/24",
  "203.0.113.0/24",
  "224.0.0.0/4",
  "240.0.0.0/4",
  "::/128",
  "::1/128",
  "::ffff:0:0/96",
  "64:ff9b::/96",
  "64:ff9b:1::/48",
  "100::/64",
  "2001::/23",
  "2001:db8::/32",
  "2002::/16",
  "fc00::/7",
  "fe80::/10",
  "fec0::/10",
  "ff00::/8",
];

/** Redirects followed (each one checked again) before the fetch gives up. */
const MAX_REDIRECTS = 5;

/** A fetch refused by the guard: callers turn it into their flow's normal error. */
export class FetchRefused extends Error {}

type Resolve = (host: string) => Promise<string[]>;
// node:dns loads on the first lookup, not at every start (docs/rules/performance.md#start).
const resolveHost: Resolve = async (host) => {
  const { lookup } = await import("node:dns/promises");
  return (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
};

/** The addresses of this machine's own interfaces (a public one included: the server's own). */
function ownAddresses(): string[] {
  return Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((i) => i.address.split("%")[0] as string));
}

/** `[::1]` → `::1`: URL host names keep IPv6 literals in brackets. */
const bare = (hostname: string) => (hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname);

/**
 * The check of one URL: why it may not be fetched, or the address to connect to (`pin`: one of the
 * addresses just checked; null when the host is an address already, or listed). `allow` is
 * LEARNSPACE_FETCH_ALLOW: host names (exact, case-insensitive), addresses and CIDR blocks. A listed
 * host or address may be private and use `http`; anything else must be `https` and resolve only to
 * public addresses that are not this machine's own.
 */
async function checkUrl(url: URL, allow: readonly string[], resolve: Resolve): Promise<{ problem: string } | { pin: string | null }> {
  const host = bare(url.hostname.toLowerCase());
  const ranges = allow.filter((a) => isIP(a.split("/")[0] ?? "") !== 0);
  const listed = allow.some((a) => a.toLowerCase() === host) || (isIP(host) !== 0 && inRanges(host, ranges));
  if (url.protocol !== "https:" && !(url.protocol === "http:" && listed)) return { problem: `${url.protocol} is not allowed (https only)` };
  if (url.username || url.password) return { problem: "a URL with credentials is not allowed" };
  if (listed) return { pin: null };
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : await resolve(host);
  } catch {
    return { problem: `${host} does not resolve` };
  }
  if (addresses.length === 0) return { problem: `${host} does not resolve` };
  const own = ownAddresses();
  for (const address of addresses) {
    if (inRanges(address, ranges)) continue;
    // An address the parser does not know (an embedded dotted IPv6 form) is refused too.
    if (isIP(address) === 0 || inRanges(address, NOT_PUBLIC) || !inRanges(address, ["0.0.0.0/0", "::/0"])) {
      return { problem: `${host} resolves to ${address}, which is not public` };
    }
    if (own.includes(address) || inRanges(address, own)) return { problem: `${host} resolves to ${address}, this server's own address` };
  }
  // IPv4 first: a host with no IPv6 route still connects as before.
  return { pin: isIP(host) ? null : (addresses.find((a) => isIP(a) === 4) ?? (addresses[0] as string)) };
}

/** Why `url` may not be fetched, or null (see checkUrl). */
export async function fetchProblem(url: URL, allow: readonly string[], resolve: Resolve = resolveHost): Promise<string | null> {
  const checked = await checkUrl(url, allow, resolve);
  return "problem" in checked ? checked.problem : null;
}

/**
 * The request to the checked address itself (docs/rules/trust.md#server-side-fetches): the URL
 * names the address, the Host header and the TLS server name (SNI, and the name the certificate
 * is verified against) stay the host's, so a second DNS answer can never swap in another address.
 */
function pinned(url: URL, address: string, init: RequestInit): [URL, RequestInit] {
  const target = new URL(url);
  target.hostname = address.includes(":") ? `[${address}]` : address;
  const headers = new Headers(init.headers);
  headers.set("host", url.host);
  const tls = (init as { tls?: Record<string, unknown> }).tls;
  return [target, { ...init, headers, tls: { ...tls, serverName: url.hostname } } as RequestInit];
}

/**
 * A `fetch` for URLs a tenant named: every URL, and every redirect's target, is checked by
 * `checkUrl` before a connection is made, and the connection goes to the address checked; a
 * refused one throws FetchRefused. Redirects are
 * followed here (at most 5) unless the caller asked for `redirect: "manual"`, in which case the
 * caller sees the 3xx (and must not follow it unchecked).
 */
export function guardedFetch(allow: readonly string[], resolve: Resolve = resolveHost) {
  return async (input: string | URL, init: RequestInit = {}): Promise<Response> => {
    let url = new URL(String(input));
    let request: RequestInit = { ...init, redirect: "manual" };
    for (let hop = 0; ; hop++) {
      const checked = await checkUrl(url, allow, resolve);
      if ("problem" in checked) throw new FetchRefused(`refused to fetch ${url.origin}: ${checked.problem}`);
      const res = await fetch(...(checked.pin ? pinned(url, checked.pin, request) : ([url, request] as const)));
      const location = res.headers.get("location");
      if (init.redirect === "manual" || res.status < 300 || res.status > 399 || !location) return res;
      if (hop >= MAX_REDIRECTS) throw new FetchRefused(`refused to fetch ${url.origin}: more than ${MAX_REDIRECTS} redirects`);
      await res.body?.cancel();
      url = new URL(location, url);
      // 303, and 301/302 after a POST, continue as a GET without a body (as browsers and fetch do).
      if (res.status === 303 || ((res.status === 301 || res.status === 302) && request.method === "POST")) {
        request = { ...request, method: "GET", body: undefined };
      }
    }
  };
}
