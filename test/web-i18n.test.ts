import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import en from "../web/src/i18n/en.json";
import ko from "../web/src/i18n/ko.json";

const keys = (node: object, prefix = ""): string[] =>
  Object.entries(node).flatMap(([k, v]) => (typeof v === "string" ? [`${prefix}${k}`] : keys(v, `${prefix}${k}.`)));

const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : [],
  );

describe("console i18n (web/src/i18n)", () => {
  test("every key exists in both Korean and English", () => {
    const k = new Set(keys(ko));
    const e = new Set(keys(en));
    expect([...k].filter((x) => !e.has(x))).toEqual([]);
    expect([...e].filter((x) => !k.has(x))).toEqual([]);
  });

  test("every literal key the screens use has a sentence", () => {
    const known = new Set(keys(en));
    const used = new Set<string>();
    for (const file of sources(join(import.meta.dir, "..", "web", "src"))) {
      for (const m of readFileSync(file, "utf8").matchAll(/\bt\("([\w.:-]+)"|"(nav\.\w+)"/g)) used.add((m[1] ?? m[2]) as string);
    }
    expect(used.size).toBeGreaterThan(50);
    expect([...used].filter((x) => !known.has(x))).toEqual([]);
  });

  test("no sentence is empty", () => {
    for (const dict of [ko, en]) {
      const flat = keys(dict);
      for (const key of flat) {
        const value = key.split(".").reduce<unknown>((n, p) => (n as Record<string, unknown>)[p], dict);
        expect(value, key).not.toBe("");
      }
    }
  });
});
