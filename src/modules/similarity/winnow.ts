// Winnowing (Schleimer, Wilkerson, Aiken, SIGMOD 2003) over character k-grams of normalised text.

/**
 * K = 13 characters is the noise threshold: shorter shared runs (common words, "ofthe", a particle
 * and its noun) are ignored; 13 chars are ~3 English words or ~5 Korean syllables (a short clause).
 * W = 10 k-grams per window: any shared run of at least W + K − 1 = 22 characters (~4–5 English words,
 * ~8–9 Korean syllables) is guaranteed to share a fingerprint, and about 2 / (W + 1) ≈ 18% of the
 * k-grams are kept (~900 for a 1,000-word essay).
 */
export const K = 13;
export const W = 10;

const BASE = 0x01000193;

/** murmur3's finaliser: the rolling sum's low bits are weak, and winnowing needs hashes whose minimum is random. */
function mix(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/**
 * The hash of every k-gram of code points, in order, in one pass: a Rabin–Karp rolling hash mod
 * 2^32, mixed. Pure integer arithmetic, so the stored hashes never change with the runtime.
 */
function kgramHashes(text: string, k: number): number[] {
  const cps = Array.from(text, (ch) => ch.codePointAt(0) as number);
  const out: number[] = [];
  if (cps.length < k) return out;
  let top = 1; // BASE^(k-1)
  for (let i = 1; i < k; i++) top = Math.imul(top, BASE);
  let h = 0;
  for (let i = 0; i < cps.length; i++) {
    if (i >= k) h = (h - Math.imul(cps[i - k] as number, top)) | 0;
    h = (Math.imul(h, BASE) + (cps[i] as number)) | 0;
    if (i >= k - 1) out.push(mix(h));
  }
  return out;
}

/**
 * The distinct fingerprints of a normalised text: in every window of W consecutive k-gram hashes
 * the minimum, the rightmost one on ties (the paper's robust winnowing). A text shorter than one
 * window keeps the minimum of what it has; one shorter than K has none.
 */
export function fingerprints(text: string, k = K, w = W): Set<number> {
  const hashes = kgramHashes(text, k);
  const out = new Set<number>();
  if (hashes.length === 0) return out;
  const width = Math.min(w, hashes.length);
  let min = -1;
  for (let end = width - 1; end < hashes.length; end++) {
    const start = end - width + 1;
    if (min < start) {
      // the previous minimum left the window: rescan it, keeping the rightmost minimum
      min = start;
      for (let i = start + 1; i <= end; i++) if ((hashes[i] as number) <= (hashes[min] as number)) min = i;
    } else if ((hashes[end] as number) <= (hashes[min] as number)) {
      min = end;
    }
    out.add(hashes[min] as number);
  }
  return out;
}
