// Wall-clock hours in the tenant's zone, for digests (docs/rules/notifications.md#digests).

const formats = new Map<string, Intl.DateTimeFormat>();

function partsIn(ms: number, zone: string) {
  let f = formats.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    formats.set(zone, f);
  }
  const p = Object.fromEntries(f.formatToParts(ms).map((x) => [x.type, Number(x.value)])) as Record<string, number>;
  return {
    y: p.year as number,
    m: p.month as number,
    d: p.day as number,
    h: p.hour as number,
    min: p.minute as number,
    s: p.second as number,
  };
}

/** The zone's offset from UTC at `ms`, in ms. */
function offsetAt(ms: number, zone: string): number {
  const p = partsIn(ms, zone);
  return Date.UTC(p.y, p.m - 1, p.d, p.h, p.min, p.s) - Math.floor(ms / 1000) * 1000;
}

/** The instant of local date y-m-d at hour:00 in the zone. */
function localInstant(y: number, m: number, d: number, hour: number, zone: string): number {
  const guess = Date.UTC(y, m - 1, d, hour);
  const first = guess - offsetAt(guess, zone);
  return guess - offsetAt(first, zone);
}

/**
 * Last answers of nextLocalHour by zone and hour: the answer X for `after` is the answer for every
 * moment in [after, X), so a fan-out to 1,000 members asks Intl once per digest hour, not once each
 * (docs/rules/notifications.md#fan-out). At most (zones in use × 24) entries.
 */
const nextHours = new Map<string, { from: number; at: number }>();

/** The first instant after `after` when the zone's clock shows `hour`:00. */
export function nextLocalHour(after: number, zone: string, hour: number): number {
  const key = `${zone}|${hour}`;
  const known = nextHours.get(key);
  if (known && known.from <= after && after < known.at) return known.at;
  const at = computeNextLocalHour(after, zone, hour);
  nextHours.set(key, { from: after, at });
  return at;
}

function computeNextLocalHour(after: number, zone: string, hour: number): number {
  const p = partsIn(after, zone);
  for (let add = 0; add < 3; add++) {
    const at = localInstant(p.y, p.m, p.d + add, hour, zone);
    if (at > after) return at;
  }
  return after + 86_400_000;
}

/** The zone's calendar date at `ms` (YYYY-MM-DD), which names a day's digest. */
export function localDate(ms: number, zone: string): string {
  const p = partsIn(ms, zone);
  return `${p.y}-${String(p.m).padStart(2, "0")}-${String(p.d).padStart(2, "0")}`;
}
