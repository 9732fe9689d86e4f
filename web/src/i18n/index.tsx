import { IntlMessageFormat } from "intl-messageformat";
import { createContext, type ReactNode, useContext, useMemo, useState } from "react";
import en from "./en.json";
import ko from "./ko.json";

export type Lang = "ko" | "en";
const dictionaries = { ko, en } as const;
const STORAGE = "learnspace.lang";

/** Korean when the saved choice or the browser's first language is Korean, else English. */
export function initialLang(): Lang {
  const saved = localStorage.getItem(STORAGE);
  if (saved === "ko" || saved === "en") return saved;
  return navigator.language.toLowerCase().startsWith("ko") ? "ko" : "en";
}

const compiled = new Map<string, IntlMessageFormat>();

/**
 * "members.title" → the ICU message at that path, formatted with vars (intl-messageformat: plurals,
 * select, number and date formats by the language's own rules; docs/rules/console.md#messages).
 * A missing key answers the key itself.
 */
export function translate(lang: Lang, key: string, vars?: Record<string, string | number>): string {
  let node: unknown = dictionaries[lang];
  for (const part of key.split(".")) node = (node as Record<string, unknown> | undefined)?.[part];
  if (typeof node !== "string") return key;
  if (!node.includes("{")) return node;
  const id = `${lang}:${key}`;
  let message = compiled.get(id);
  if (!message) {
    message = new IntlMessageFormat(node, lang);
    compiled.set(id, message);
  }
  try {
    return String(message.format(vars ?? {}));
  } catch {
    return node; // a variable the caller did not give: the message as written rather than a broken screen
  }
}

/** Whether the dictionary has a message at this path (a problem code or a raw value the console can name). */
export function hasMessage(lang: Lang, key: string): boolean {
  let node: unknown = dictionaries[lang];
  for (const part of key.split(".")) node = (node as Record<string, unknown> | undefined)?.[part];
  return typeof node === "string";
}

type I18n = { lang: Lang; setLang: (l: Lang) => void; t: (key: string, vars?: Record<string, string | number>) => string };
const Ctx = createContext<I18n | null>(null);

export function I18nProvider({ children }: { children: ReactNode }) {
  const [lang, setLangState] = useState<Lang>(initialLang);
  const value = useMemo<I18n>(
    () => ({
      lang,
      setLang: (l) => {
        localStorage.setItem(STORAGE, l);
        document.documentElement.lang = l;
        setLangState(l);
      },
      t: (key, vars) => translate(lang, key, vars),
    }),
    [lang],
  );
  document.documentElement.lang = lang;
  return <Ctx.Provider value={value}>{children}</Ctx.Provider>;
}

export function useI18n(): I18n {
  const v = useContext(Ctx);
  if (!v) throw new Error("useI18n outside I18nProvider");
  return v;
}

/** The built-in roles' names as the server creates them: shown in the user's language until a school renames them. */
const BUILTIN_ROLE_NAMES: Record<string, string> = { owner: "Owner", member: "Member" };

/** A role's name for the screen: a built-in role with its default name is translated (docs/rules/console.md#raw-values). */
export function roleLabel(role: { key?: string; name: string } | null | undefined, t: I18n["t"]): string {
  if (!role) return "";
  return role.key && BUILTIN_ROLE_NAMES[role.key] === role.name ? t(`roles.builtinNames.${role.key}`) : role.name;
}
