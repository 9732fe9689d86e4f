// isIP without node:net (src/platform/ip.ts) answers what node:net's does.
import { expect, test } from "bun:test";
import { isIP as netIsIP } from "node:net";
import { isIP } from "../src/platform/ip";

test("isIP answers node:net's isIP on addresses and on mutations of them", () => {
  const seeds = ["127.0.0.1", "::1", "::", "fe80::1%eth0", "::ffff:1.2.3.4", "1.2.3.04", "256.1.1.1", "1:2:3:4:5:6:7:8"];
  seeds.push("1:2:3:4:5:6:1.2.3.4", "", "1.2.3", "::ffff:127.0.0.1%1", "2001:db8::", "2001:db8::1:2:3:4:5:6", "0.0.0.0/0");
  const alphabet = "0123456789abcdefABCDEFg.:%-x /";
  // A fixed generator: the same inputs every run.
  let state = 27;
  const next = (k: number) => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state % k;
  };
  const seen = { 0: 0, 4: 0, 6: 0 };
  for (let i = 0; i < 20_000; i++) {
    const chars = (seeds[i] ?? (seeds[next(seeds.length)] as string)).split("");
    if (i >= seeds.length) {
      for (let m = next(4); m >= 0; m--) {
        const at = next(chars.length + 1);
        const op = next(3);
        if (op === 0) chars.splice(at, 0, alphabet[next(alphabet.length)] as string);
        else if (op === 1) chars.splice(at, 1);
        else chars[at] = alphabet[next(alphabet.length)] as string;
      }
    }
    const input = chars.join("");
    const expected = netIsIP(input);
    if (isIP(input) !== expected) expect({ input, isIP: isIP(input) as number }).toEqual({ input, isIP: expected });
    seen[expected as 0 | 4 | 6]++;
  }
  // Every answer was exercised, often.
  expect(Math.min(seen[0], seen[4], seen[6])).toBeGreaterThan(400);
});
