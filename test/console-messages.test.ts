// The console names every problem by its code (docs/rules/console.md#problems): each code the server can
// answer has a sentence in both dictionaries, and every message is a valid ICU message in its language.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { IntlMessageFormat } from "intl-messageformat";
import en from "../web/src/i18n/en.json";
import ko from "../web/src/i18n/ko.json";

const root = join(import.meta.dir, "..");

/** The codes thrown through the error helpers anywhere under src/. */
function serverCodes(): string[] {
  const codes = new Set<string>();
  for (const file of new Bun.Glob("src/**/*.ts").scanSync(root)) {
    const text = readFileSync(join(root, file), "utf8");
    for (const m of text.matchAll(/\b(?:conflict|badRequest|forbidden|unauthenticated|tooMany|new Problem)\(\s*(?:\d+,\s*)?"([A-Z_]+)"/g))
      codes.add(m[1] as string);
  }
  return [...codes].sort();
}

function messages(node: unknown, path = ""): [string, string][] {
  if (typeof node === "string") return [[path, node]];
  return Object.entries(node as Record<string, unknown>).flatMap(([k, v]) => messages(v, path ? `${path}.${k}` : k));
}

describe("console dictionaries", () => {
  test("every problem code the server answers has a sentence in English and Korean", () => {
    const codes = serverCodes();
    expect(codes).toContain("INVALID_CREDENTIALS");
    expect(codes.filter((c) => !(c in en.errors))).toEqual([]);
    expect(codes.filter((c) => !(c in ko.errors))).toEqual([]);
  });

  test("every message parses as ICU and the Korean dictionary has every English key", () => {
    for (const [lang, dict] of [
      ["en", en],
      ["ko", ko],
    ] as const)
      for (const [key, text] of messages(dict)) expect(() => new IntlMessageFormat(text, lang), `${lang} ${key}`).not.toThrow();
    const koKeys = new Set(messages(ko).map(([k]) => k));
    expect(
      messages(en)
        .map(([k]) => k)
        .filter((k) => !koKeys.has(k)),
    ).toEqual([]);
  });

  test("English plurals agree with the count", () => {
    const f = (text: string, vars: Record<string, number | string>) => String(new IntlMessageFormat(text, "en").format(vars));
    expect(f(en.invitations.sentCount, { count: 1 })).toBe("1 invitation sent.");
    expect(f(en.invitations.sentCount, { count: 3 })).toBe("3 invitations sent.");
    expect(f(en.invitations.badEmails, { count: 1, list: "a@b" })).toBe("This address is not valid: a@b");
  });
});
