// What the browser checks of one feature share: the harness run.ts hands over and the steps built on it.
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";

/** The harness run.ts passes to each feature's checks (lesson, spaces…). */
export type Helpers = {
  base: string;
  shots: string;
  context: (locale?: string) => Promise<BrowserContext>;
  check: (name: string, fn: () => Promise<void>) => Promise<void>;
  assert: (cond: unknown, message: string) => asserts cond;
  watch: (page: Page) => { take(): string[] };
  axe: (page: Page, label: string) => Promise<void>;
  /** Signed in, from a session a closed context of the same person left when there is one (run.ts). */
  signIn: (page: Page, base: string, identifier: string, password?: string) => Promise<void>;
  /** Signed in through the hosted page's form, as a person does. */
  signInByForm: (page: Page, base: string, identifier: string, password?: string) => Promise<void>;
  setLang: (page: Page, lang: "ko" | "en") => Promise<void>;
  /** Opens a console path, inside the console when the page shows it (no new document), else by a load. */
  open: (page: Page, base: string, path: string) => Promise<void>;
  /** Until none of the page's requests has been in flight for 500 ms (also after a move inside the console). */
  settle: (page: Page) => Promise<void>;
};

export function steps(h: Helpers) {
  const assert: Helpers["assert"] = h.assert;
  /** A full-page screenshot once the page's requests have settled. */
  const snap = async (page: Page, name: string) => {
    await page.waitForLoadState("networkidle");
    await page.screenshot({ path: join(h.shots, `${name}.png`), fullPage: true });
  };
  /** Fails with the console errors and failed requests the page has gathered. */
  const problems = (page: Page, w: { take(): string[] }) => {
    const left = w.take();
    assert(left.length === 0, `${page.url()}: ${left.join("; ")}`);
  };
  /** Signed in, and the first screen's requests answered. */
  const signIn = async (page: Page, who: string) => {
    await h.signIn(page, h.base, who);
    await page.waitForLoadState("networkidle");
  };
  /** Opens each [name, path], captures it as `<lang>-<prefix>-<name>.png` and runs axe on it. */
  const captureScreens = async (page: Page, lang: "ko" | "en", prefix: string, screens: readonly (readonly [string, string])[]) => {
    for (const [name, path] of screens) {
      await h.open(page, h.base, path);
      await page.locator("#main h1").first().waitFor();
      await h.settle(page);
      await page.screenshot({ path: join(h.shots, `${lang}-${prefix}-${name}.png`), fullPage: true });
      await h.axe(page, `${lang} ${path}`);
    }
  };
  return { snap, problems, signIn, captureScreens };
}
