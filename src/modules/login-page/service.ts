import { Value } from "@sinclair/typebox/value";
import { eq } from "drizzle-orm";
import { type Db, write } from "../../platform/db/types";
import { invalidMany } from "../../platform/http/errors";
import { fieldPath } from "../../platform/http/plugin";
import { type LoginPageDraftInput, LoginPageSettings, type LoginPageSettingsRecord, type ReplaceLoginPageInput } from "./model";
import { loginPageSettings } from "./tables";

const DEFAULT_METHODS: LoginPageSettingsRecord["methods"] = { email: true, social_a: false, social_b: false, partner: false };
const DEFAULT_LABELS: LoginPageSettingsRecord["buttonLabels"] = {
  email: { ko: "이메일로 로그인", en: "Sign in with e-mail" },
  sso: { ko: "SSO로 로그인", en: "Sign in with SSO" },
  social_a: { ko: "소셜 A로 로그인", en: "Sign in with Social A" },
  social_b: { ko: "소셜 B로 로그인", en: "Sign in with Social B" },
  partner: { ko: "제휴사로 로그인", en: "Sign in with a partner" },
};

/** The settings of a tenant that has saved none. */
export const DEFAULT_LOGIN_PAGE: LoginPageSettingsRecord = {
  logoImageUrl: null,
  logoImageFileId: null,
  titleKo: "",
  titleEn: "",
  backgroundImageUrl: null,
  backgroundImageFileId: null,
  backgroundTitleEnabled: false,
  backgroundTitleKo: "",
  backgroundTitleEn: "",
  backgroundTitleColor: "#000000",
  methods: DEFAULT_METHODS,
  buttonLabels: DEFAULT_LABELS,
  externalLinksEnabled: true,
  externalLinks: [],
  externalFeed: null,
};

/** `fields` laid over `base`: present top-level fields win; methods and buttonLabels merge per key. */
function overlay(base: LoginPageSettingsRecord, fields: LoginPageDraftInput): LoginPageSettingsRecord {
  const out: LoginPageSettingsRecord = { ...base };
  for (const [k, v] of Object.entries(fields)) {
    if (v === undefined || k === "methods" || k === "buttonLabels") continue;
    (out as Record<string, unknown>)[k] = v;
  }
  out.methods = { ...base.methods, ...stripUndefined(fields.methods ?? {}) };
  out.buttonLabels = { ...base.buttonLabels, ...stripUndefined(fields.buttonLabels ?? {}) };
  // Keep only the record's own keys, whatever else the input carried.
  return Value.Clean(LoginPageSettings, structuredClone(out)) as LoginPageSettingsRecord;
}

const stripUndefined = <T extends object>(o: T) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;

function readRow(db: Db) {
  return db.select().from(loginPageSettings).where(eq(loginPageSettings.id, 1)).get() ?? null;
}

/** The live login page settings (defaults until the tenant saves its own). */
export function getLoginPageSettings(db: Db): LoginPageSettingsRecord {
  const live = readRow(db)?.live;
  return live ? overlay(DEFAULT_LOGIN_PAGE, live) : DEFAULT_LOGIN_PAGE;
}

function saveRow(db: Db, set: { live?: LoginPageSettingsRecord; draft?: LoginPageDraftInput | null }, now: number) {
  db.insert(loginPageSettings)
    .values({ id: 1, live: set.live ?? null, draft: set.draft ?? null, updatedAt: now })
    .onConflictDoUpdate({ target: loginPageSettings.id, set: { ...set, updatedAt: now } })
    .run();
}

/** PUT: the body replaces the settings; absent optional fields take their defaults. */
export function replaceLoginPageSettings(db: Db, input: ReplaceLoginPageInput, now = Date.now()) {
  const next = overlay(DEFAULT_LOGIN_PAGE, input);
  write(db, (tx) => saveRow(tx, { live: next }, now));
  return next;
}

/** The live settings overlaid with the draft's fields (the live settings without a draft). */
export function getLoginPageDraft(db: Db) {
  const row = readRow(db);
  const live = getLoginPageSettings(db);
  return { draft: row?.draft ? overlay(live, row.draft) : live };
}

/** PUT: the body replaces the stored draft. */
export function saveLoginPageDraft(db: Db, input: LoginPageDraftInput, now = Date.now()) {
  write(db, (tx) => saveRow(tx, { draft: stripUndefined(input) }, now));
  return getLoginPageDraft(db);
}

/** Applies the draft over the live settings, validates the result like replace, and clears the draft. */
export function publishLoginPageDraft(db: Db, now = Date.now()) {
  return write(db, (tx) => {
    const row = readRow(tx);
    const live = getLoginPageSettings(tx);
    if (!row?.draft) return live;
    const next = overlay(live, row.draft);
    const errors = [...Value.Errors(LoginPageSettings, next)];
    if (errors.length) {
      throw invalidMany(errors.map((e) => ({ in: "body" as const, field: fieldPath(e.path) || "draft", message: e.message })));
    }
    saveRow(tx, { live: next, draft: null }, now);
    return next;
  });
}
