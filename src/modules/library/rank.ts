// Fractional string ranks (after David Greenspan's fractional-indexing "midpoint"): a rank is a
// base-62 fraction whose digits sort in ASCII order, never ending in "0", so a new rank always
// fits between two neighbours and plain string comparison (SQLite BINARY, JS <) orders them.
const DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const digit = (c: string | undefined) => (c === undefined ? 0 : DIGITS.indexOf(c));

function midpoint(a: string, b: string | null): string {
  if (b !== null) {
    let n = 0;
    while ((a[n] ?? "0") === b[n]) n++;
    if (n > 0) return b.slice(0, n) + midpoint(a.slice(n), b.slice(n));
  }
  const da = digit(a[0]);
  const db = b === null ? DIGITS.length : digit(b[0]);
  if (db - da > 1) return DIGITS[Math.round((da + db) / 2)] as string;
  if (b !== null && b.length > 1) return b.slice(0, 1);
  return (DIGITS[da] as string) + midpoint(a.slice(1), null);
}

/** A rank after `a` that grows by one step per call, so appending many nodes keeps ranks short. */
function after(a: string): string {
  for (let i = 0; i < a.length; i++) {
    const d = digit(a[i]);
    if (d < DIGITS.length - 1) return a.slice(0, i) + DIGITS[d + 1];
  }
  return a + midpoint("", null);
}

/** A rank strictly between `prev` and `next` (null = no neighbour on that side). */
export function rankBetween(prev: string | null, next: string | null): string {
  if (prev !== null && next === null) return after(prev);
  if (prev !== null && next !== null && prev >= next) return after(prev); // a tie cannot be split; stay after prev
  return midpoint(prev ?? "", next);
}
