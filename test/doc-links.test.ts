// The repository explains itself: every comment and doc cites rules by `docs/<page>.md#<heading>`
// inside the repository (docs/rules/README.md), never a document beside it. This test fails on a
// pointer outside the repository and on a cited page or heading that does not exist.
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";

const root = join(import.meta.dir, "..");
const self = relative(root, import.meta.path);

/** Folders and files scanned, and the file endings read in them. */
const scanned = [
  "src",
  "test",
  "scripts",
  "bench",
  "web/src",
  "web/e2e",
  "docs",
  "README.md",
  ".ci/run",
  ".dependency-cruiser.cjs",
  "openapi.json",
];
const endings = /\.(ts|tsx|md|cjs|json|css|html)$|^\.ci\/run$/;

/** Pointers outside the repository: the contract documents it was written from and their section marks. */
const outside: [RegExp, string][] = [
  [new RegExp(["DECI", "SIONS"].join("")), "cites a document outside the repository"],
  [/(?<!RFC \d+ )§\s?\d/, "cites a numbered section of a document outside the repository"],
  [/\.\.\/shared\b|\/work\/shared/, "points at a folder beside the checkout"],
  [/\bspec (?:[A-Z][a-z]+ \d|convention)|\bthe spec\b/i, "cites the spec, which is not in the repository"],
];

/** Code (not a comment) that may name the optional catalog beside the checkout: CI's coverage report. */
const allowed = (file: string, line: string) =>
  file === ".ci/run" && !line.trimStart().startsWith("#") && line.includes("ops-coverage.mjs");

function files(path: string): string[] {
  const full = join(root, path);
  if (!existsSync(full)) return [];
  if (statSync(full).isFile()) return [path];
  return readdirSync(full).flatMap((name) => (name === "node_modules" || name === "screenshots" ? [] : files(join(path, name))));
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as `-`. */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

const anchorsOf = new Map<string, Set<string>>();
function anchors(doc: string): Set<string> {
  let set = anchorsOf.get(doc);
  if (!set) {
    const text = readFileSync(join(root, doc), "utf8").replace(/```[\s\S]*?```/g, "");
    set = new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1] ?? "")));
    anchorsOf.set(doc, set);
  }
  return set;
}

/** Every problem of one file's text: pointers outside, and citations of missing pages or headings. */
export function problems(file: string, text: string): string[] {
  const found: string[] = [];
  text.split("\n").forEach((line, i) => {
    const at = `${file}:${i + 1}`;
    for (const [pattern, why] of outside) if (pattern.test(line) && !allowed(file, line)) found.push(`${at} ${why}: ${line.trim()}`);
    const cites = [...line.matchAll(/(?<![\w/.])(docs\/[\w./-]+\.md)(?:#([\w-]+))?/g)].map((m) => [m[1] ?? "", m[2]]);
    if (file.endsWith(".md")) {
      for (const m of line.matchAll(/\]\(([\w./-]+\.md)(?:#([\w-]+))?\)/g))
        cites.push([relative(root, normalize(join(root, dirname(file), m[1] ?? ""))), m[2]]);
      for (const m of line.matchAll(/\]\(#([\w-]+)\)/g)) cites.push([file, m[1]]);
    }
    for (const [doc, anchor] of cites) {
      if (!doc || !existsSync(join(root, doc))) found.push(`${at} cites a missing page ${doc}`);
      else if (anchor && !anchors(doc).has(anchor)) found.push(`${at} cites a missing heading ${doc}#${anchor}`);
    }
  });
  return found;
}

describe("comments and docs point inside the repository", () => {
  test("the check finds a pointer outside and a missing heading", () => {
    const outsideCite = ["(DECI", "SIONS §9.2)"].join("");
    expect(problems("src/x.ts", `// a rule ${outsideCite}`).length).toBeGreaterThan(0);
    expect(problems("src/x.ts", "// see ../shared/api/operations.json")).toHaveLength(1);
    expect(problems("src/x.ts", "// docs/rules/files.md#no-such-heading")).toHaveLength(1);
    expect(problems("src/x.ts", "// docs/rules/no-such-page.md")).toHaveLength(1);
    expect(problems("docs/rules/x.md", "[a](files.md#no-such-heading)")).toHaveLength(1);
    expect(problems("src/x.ts", "// docs/rules/files.md#getfile and RFC 9110 §14.1.2")).toEqual([]);
    expect(slug("Checking: `learnspace doctor`")).toBe("checking-learnspace-doctor");
  });

  test("no file points outside, and every cited page and heading exists", () => {
    const all = scanned.flatMap(files).filter((f) => f !== self && endings.test(f));
    expect(all.length).toBeGreaterThan(500);
    const found = all.flatMap((f) => problems(f, readFileSync(join(root, f), "utf8")));
    expect(found).toEqual([]);
  });
});
