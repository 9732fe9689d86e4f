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

  // A key built from a template (t(`spaces.roles.${m.role}`)) names a group: its fixed parts must
  // match at least one sentence, and a literal it may take (`${x ?? "NOT_SUBMITTED"}`, a ternary's
  // branches) must be a sentence itself.
  test("every template key the screens use matches a group of sentences", () => {
    const known = keys(en);
    const seen: string[] = [];
    const missing: string[] = [];
    for (const file of sources(join(import.meta.dir, "..", "web", "src"))) {
      for (const m of readFileSync(file, "utf8").matchAll(/\bt\(`([^`]*)`/g)) {
        const template = m[1] as string;
        seen.push(template);
        const parts = template.split(/\$\{((?:[^{}]|\{[^{}]*\})*)\}/);
        // parts: fixed, expression, fixed, expression, …, fixed
        const literal = (x: string) => x.replace(/[.*+?^$()|[\]\\]/g, "\\$&");
        const pattern = new RegExp(`^${parts.map((p, i) => (i % 2 ? "[^.]+" : literal(p))).join("")}$`);
        if (!known.some((k) => pattern.test(k))) missing.push(`${file}: ${template}`);
        for (let i = 1; i < parts.length; i += 2) {
          const expr = parts[i] as string;
          // Literal values an expression can give: after ??, ? or : (not the arguments of a call such as replace(".", "_")).
          for (const lit of expr.matchAll(/(?:\?\?|\?|:)\s*"([^"]*)"/g)) {
            const key = parts.map((p, j) => (j === i ? lit[1] : j % 2 ? "x" : p)).join("");
            if (parts.length === 3 && !known.includes(key)) missing.push(`${file}: ${template} → ${key}`);
          }
        }
      }
    }
    expect(seen.length).toBeGreaterThan(40);
    expect(missing).toEqual([]);
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
