import { Value } from "@sinclair/typebox/value";
import { eq } from "drizzle-orm";
import { type Db, write } from "../../platform/db/types";
import type { DownloadRule } from "../../platform/files/tokens";
import { type FieldError, invalidMany, Problem } from "../../platform/http/errors";
import { fieldPath } from "../../platform/http/plugin";
import { readyFilesByIds, requireReadyFiles } from "../files/attachments";
import { selfSignUpOn, setSelfSignUp } from "../tenant/settings";
import {
  type LoginPageDraftInput,
  LoginPageSettings,
  type LoginPageSettingsRecord,
  ReplaceLoginPageBody,
  type ReplaceLoginPageInput,
} from "./model";
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
  allowUserSelfSignUp: false,
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

/**
 * The live login page settings (defaults until the tenant saves its own). The self sign-up switch
 * is read from the tenant settings row, which joinTenant and the public page read too.
 */
export function getLoginPageSettings(db: Db): LoginPageSettingsRecord {
  const live = readRow(db)?.live;
  const switched = selfSignUpOn(db);
  return { ...(live ? overlay(DEFAULT_LOGIN_PAGE, live) : DEFAULT_LOGIN_PAGE), allowUserSelfSignUp: switched };
}

function saveRow(db: Db, set: { live?: LoginPageSettingsRecord; draft?: LoginPageDraftInput | null }, now: number) {
  if (set.live) setSelfSignUp(db, set.live.allowUserSelfSignUp, now);
  db.insert(loginPageSettings)
    .values({ id: 1, live: set.live ?? null, draft: set.draft ?? null, updatedAt: now })
    .onConflictDoUpdate({ target: loginPageSettings.id, set: { ...set, updatedAt: now } })
    .run();
}

const IMAGE_FILE_FIELDS = ["logoImageFileId", "backgroundImageFileId"] as const;

/**
 * Body references (docs/rules/conventions.md#body-references): each image file id sent must be a ready file, else 400 naming
 * the field. A newly set id must be the caller's own upload; one the settings or draft already
 * hold (`kept`, e.g. set by another admin) only has to be still ready.
 */
function checkImageFiles(db: Db, actor: { memberId: string }, input: LoginPageDraftInput, kept: ReadonlySet<string>) {
  const errors: FieldError[] = [];
  const keptReady = readyFilesByIds(db, [...kept]);
  for (const field of IMAGE_FILE_FIELDS) {
    const id = input[field];
    if (id == null || keptReady.has(id)) continue;
    try {
      requireReadyFiles(db, actor, [id], field);
    } catch (e) {
      if (!(e instanceof Problem)) throw e;
      errors.push({ in: "body", field, message: "must be one of your own uploaded (ready) files" });
    }
  }
  if (errors.length) throw invalidMany(errors);
}

type ImageFiles = { [F in (typeof IMAGE_FILE_FIELDS)[number]]?: string | null };
const imageFileIds = (...sources: (ImageFiles | null | undefined)[]) =>
  new Set(sources.flatMap((s) => IMAGE_FILE_FIELDS.flatMap((f) => s?.[f] ?? [])));

/** PUT: the body replaces the settings; absent optional fields take their defaults. */
export function replaceLoginPageSettings(db: Db, actor: { memberId: string }, input: ReplaceLoginPageInput, now = Date.now()) {
  const next = overlay(DEFAULT_LOGIN_PAGE, input);
  write(db, (tx) => {
    checkImageFiles(tx, actor, input, imageFileIds(getLoginPageSettings(tx)));
    saveRow(tx, { live: next }, now);
  });
  return next;
}

/** The live settings overlaid with the draft's fields (the live settings without a draft). */
export function getLoginPageDraft(db: Db) {
  const row = readRow(db);
  const live = getLoginPageSettings(db);
  return { draft: row?.draft ? overlay(live, row.draft) : live };
}

/** PUT: the body replaces the stored draft. */
export function saveLoginPageDraft(db: Db, actor: { memberId: string }, input: LoginPageDraftInput, now = Date.now()) {
  write(db, (tx) => {
    checkImageFiles(tx, actor, input, imageFileIds(getLoginPageSettings(tx), readRow(tx)?.draft));
    saveRow(tx, { draft: stripUndefined(input) }, now);
  });
  return getLoginPageDraft(db);
}

/** Applies the draft over the live settings, validates the result like replace, and clears the draft. */
export function publishLoginPageDraft(db: Db, now = Date.now()) {
  return write(db, (tx) => {
    const row = readRow(tx);
    const live = getLoginPageSettings(tx);
    if (!row?.draft) return live;
    const next = overlay(live, row.draft);
    const errors: FieldError[] = [...Value.Errors(ReplaceLoginPageBody, next)].map((e) => ({
      in: "body",
      field: fieldPath(e.path) || "draft",
      message: e.message,
    }));
    // The draft's image files were checked when it was saved; they must still be ready.
    const ready = readyFilesByIds(tx, [...imageFileIds(next)]);
    for (const field of IMAGE_FILE_FIELDS) {
      const id = next[field];
      if (id && !ready.has(id)) errors.push({ in: "body", field, message: "must be a ready uploaded file" });
    }
    if (errors.length) throw invalidMany(errors);
    saveRow(tx, { live: next, draft: null }, now);
    return next;
  });
}

/** The record id of the live settings in `login-page:<id>` download URLs (one row per tenant). */
export const LOGIN_PAGE_RECORD = "live";

/** downloadFileContent of a `login-page:live` URL (anyone): the file is still a live image of the login page. */
export function loginPageImageDownload(db: Db, recordId: string, fileId: string): DownloadRule {
  if (recordId !== LOGIN_PAGE_RECORD) return "gone";
  return imageFileIds(getLoginPageSettings(db)).has(fileId) ? "ok" : "gone";
}
