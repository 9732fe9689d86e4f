import { asc, eq, inArray } from "drizzle-orm";
import type { Static } from "elysia";
import { preparedQuery } from "../../platform/db/sqlite";
import { type Db, write } from "../../platform/db/types";
import { invalid, notFound } from "../../platform/http/errors";
import { spaceCategories, spaceCategorySettings, spaceDefaults } from "../../schema/spaces";
import { MENUS, type SpaceCategories, type SpaceDefaults, type UpdateSpaceCategoriesBody, type UpdateSpaceCategoryBody } from "./model";

type Defaults = Static<typeof SpaceDefaults>;

/** Until an administrator changes them: downloads allowed, everything else off. */
const BUILTIN_DEFAULTS: Defaults = {
  defaultAutoJoin: false,
  defaultExitRestricted: false,
  defaultAllowFileDownload: true,
  defaultVodConcurrentLimit: false,
  enforceFileDownloadDisabled: false,
  enforceVodConcurrentLimit: false,
};

/** Read for every page of spaces (toSpaces), every other school's GET /spaces in an exam: a prepared query (docs/rules/performance.md#prepared-queries). */
export function getSpaceDefaults(db: Db): Defaults {
  const row = preparedQuery(db, "spaces.defaults", (base) =>
    base.select().from(spaceDefaults).where(eq(spaceDefaults.id, 1)).prepare(),
  ).get();
  if (!row) return { ...BUILTIN_DEFAULTS };
  const { id: _id, updatedAt: _u, ...values } = row;
  return values;
}

export function updateSpaceDefaults(db: Db, input: Partial<Defaults>, now = Date.now()): Defaults {
  return write(db, (tx) => {
    const next = { ...getSpaceDefaults(tx), ...input };
    tx.insert(spaceDefaults)
      .values({ id: 1, ...next, updatedAt: now })
      .onConflictDoUpdate({ target: spaceDefaults.id, set: { ...next, updatedAt: now } })
      .run();
    return next;
  });
}

/**
 * A space's allowFileDownload and vodConcurrentLimit as they hold: the enforce* flags of the space
 * defaults override the stored (or sent) value, for existing spaces too (docs/rules/spaces.md#creation). Every reader
 * of these two flags goes through here.
 */
export const effectiveAllowFileDownload = (d: Defaults, value: boolean) => value && !d.enforceFileDownloadDisabled;
export const effectiveVodConcurrentLimit = (d: Defaults, value: boolean) => value || d.enforceVodConcurrentLimit;

/** Whether downloads are allowed in a space whose stored flag is `stored`, under the current defaults. */
export const spaceAllowsDownload = (db: Db, stored: boolean) => effectiveAllowFileDownload(getSpaceDefaults(db), stored);

/**
 * The four flags a new space takes: an absent one from the defaults; the enforce* flags override
 * whatever was sent (downloads off, concurrent-VOD limit on). Updates pass through the same rule.
 */
export function applySpacePolicy(
  d: Defaults,
  sent: { autoJoin?: boolean; exitRestricted?: boolean; allowFileDownload?: boolean; vodConcurrentLimit?: boolean },
) {
  return {
    autoJoin: sent.autoJoin ?? d.defaultAutoJoin,
    exitRestricted: sent.exitRestricted ?? d.defaultExitRestricted,
    allowFileDownload: effectiveAllowFileDownload(d, sent.allowFileDownload ?? d.defaultAllowFileDownload),
    vodConcurrentLimit: effectiveVodConcurrentLimit(d, sent.vodConcurrentLimit ?? d.defaultVodConcurrentLimit),
  };
}

type Categories = Static<typeof SpaceCategories>;
type Scalars = Omit<Categories, "categories">;

const BUILTIN_CATEGORY_SETTINGS: Scalars = {
  semesterEnabled: false,
  semesterWithYear: false,
  tags: [],
  roles: [],
  startMenu: "announcement",
  enabledMenus: [...MENUS],
};

function categoryScalars(db: Db): Scalars {
  const row = db.select().from(spaceCategorySettings).where(eq(spaceCategorySettings.id, 1)).get();
  if (!row) return { ...BUILTIN_CATEGORY_SETTINGS, enabledMenus: [...BUILTIN_CATEGORY_SETTINGS.enabledMenus] };
  const { id: _id, updatedAt: _u, ...values } = row;
  return values;
}

/** startMenu and enabledMenus that a new space copies. */
export function spaceMenus(db: Db): { startMenu: string; enabledMenus: string[] } {
  const s = categoryScalars(db);
  return { startMenu: s.startMenu, enabledMenus: s.enabledMenus };
}

const toCategory = (r: typeof spaceCategories.$inferSelect) => ({ id: r.id, name: r.name, order: r.order });

export function getSpaceCategories(db: Db): Categories {
  const categories = db.select().from(spaceCategories).orderBy(asc(spaceCategories.order), asc(spaceCategories.id)).all();
  return { ...categoryScalars(db), categories: categories.map(toCategory) };
}

/**
 * PUT: absent fields take their defaults. A category with `id` is kept (renamed/reordered), one
 * without is new, a stored one not listed is deleted. An absent `order` is the item's index.
 */
export function updateSpaceCategories(db: Db, input: Static<typeof UpdateSpaceCategoriesBody>, now = Date.now()): Categories {
  const d = BUILTIN_CATEGORY_SETTINGS;
  const scalars: Scalars = {
    semesterEnabled: input.semesterEnabled ?? d.semesterEnabled,
    semesterWithYear: input.semesterWithYear ?? d.semesterWithYear,
    tags: input.tags ?? d.tags,
    roles: input.roles ?? d.roles,
    startMenu: input.startMenu ?? d.startMenu,
    enabledMenus: input.enabledMenus ?? [...d.enabledMenus],
  };
  const items = input.categories ?? [];
  return write(db, (tx) => {
    const existing = new Set(
      tx
        .select({ id: spaceCategories.id })
        .from(spaceCategories)
        .all()
        .map((r) => r.id),
    );
    const kept = new Set<string>();
    items.forEach((c, i) => {
      if (c.id === undefined) return;
      if (!existing.has(c.id)) throw invalid(`categories[${i}].id`, "is not a category of this tenant");
      if (kept.has(c.id)) throw invalid(`categories[${i}].id`, "is listed twice");
      kept.add(c.id);
    });
    const gone = [...existing].filter((id) => !kept.has(id));
    if (gone.length) tx.delete(spaceCategories).where(inArray(spaceCategories.id, gone)).run();
    items.forEach((c, i) => {
      const order = c.order ?? i;
      if (c.id) tx.update(spaceCategories).set({ name: c.name, order }).where(eq(spaceCategories.id, c.id)).run();
      else tx.insert(spaceCategories).values({ id: Bun.randomUUIDv7(), name: c.name, order, createdAt: now }).run();
    });
    tx.insert(spaceCategorySettings)
      .values({ id: 1, ...scalars, updatedAt: now })
      .onConflictDoUpdate({ target: spaceCategorySettings.id, set: { ...scalars, updatedAt: now } })
      .run();
    return getSpaceCategories(tx);
  });
}

export function updateSpaceCategory(db: Db, id: string, input: Static<typeof UpdateSpaceCategoryBody>) {
  return write(db, (tx) => {
    const row = tx.select().from(spaceCategories).where(eq(spaceCategories.id, id)).get();
    if (!row) throw notFound();
    const next = tx
      .update(spaceCategories)
      .set({ name: input.name ?? row.name, order: input.order ?? row.order })
      .where(eq(spaceCategories.id, id))
      .returning()
      .get();
    return toCategory(next ?? row);
  });
}
