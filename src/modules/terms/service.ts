import { and, asc, count, eq, gt, isNull, or } from "drizzle-orm";
import type { Static } from "elysia";
import { type Db, write } from "../../platform/db/types";
import { invalid, notFound } from "../../platform/http/errors";
import type { TermTables } from "./columns";
import type { CreateTermBody, Term, UpdateTermBody } from "./model";

export type TermRecord = Static<typeof Term>;
export type TermVersionRow = TermTables["versions"]["$inferSelect"];
export type CreateTermInput = Static<typeof CreateTermBody>;
export type UpdateTermInput = Static<typeof UpdateTermBody>;

/** The current version of every topic, in display order (order, then topic). */
export function currentTermRows(db: Db, tables: TermTables): TermVersionRow[] {
  const { topics, versions } = tables;
  return db
    .select({ v: versions })
    .from(topics)
    .innerJoin(versions, and(eq(versions.topic, topics.topic), eq(versions.version, topics.currentVersion)))
    .orderBy(asc(versions.order), asc(versions.topic))
    .all()
    .map((r) => r.v);
}

/** The current version of one topic, or null. */
export function currentTermRow(db: Db, tables: TermTables, topic: string): TermVersionRow | null {
  const { topics, versions } = tables;
  const row = db
    .select({ v: versions })
    .from(topics)
    .innerJoin(versions, and(eq(versions.topic, topics.topic), eq(versions.version, topics.currentVersion)))
    .where(eq(topics.topic, topic))
    .get();
  return row?.v ?? null;
}

/** Effective consents per (topic, version): not withdrawn, not expired. One grouped query. */
function consentCounts(db: Db, tables: TermTables, now: number): Map<string, number> {
  const c = tables.consents;
  const rows = db
    .select({ topic: c.topic, version: c.version, n: count() })
    .from(c)
    .where(and(isNull(c.withdrawnAt), or(isNull(c.expiresAt), gt(c.expiresAt, now))))
    .groupBy(c.topic, c.version)
    .all();
  return new Map(rows.map((r) => [`${r.topic}\0${r.version}`, r.n]));
}

/** A term version as shown to people who consent (DisplayAgreement). */
export function toDisplayAgreement(scope: TermTables["scope"], row: TermVersionRow) {
  return {
    scope,
    topic: row.topic,
    version: row.version,
    isEssential: row.isEssential,
    isVisible: row.isVisible,
    order: row.order,
    title: { ko: row.titleKo, en: row.titleEn },
    documentUrl: { ko: row.documentUrlKo, en: row.documentUrlEn },
  };
}

export function toTerm(scope: TermTables["scope"], row: TermVersionRow, consentCount: number): TermRecord {
  return {
    ...toDisplayAgreement(scope, row),
    consentTtlDays: row.consentTtlDays,
    isActive: row.isActive,
    consentCount,
  };
}

/** Every topic at its current version, with the number of effective consents to that version. */
export function listTerms(db: Db, tables: TermTables, now = Date.now()) {
  const counts = consentCounts(db, tables, now);
  return {
    terms: currentTermRows(db, tables).map((r) => toTerm(tables.scope, r, counts.get(`${r.topic}\0${r.version}`) ?? 0)),
  };
}

/** A new topic starts at version 1; an existing topic gets version n+1, which becomes current. */
export function createTerm(db: Db, tables: TermTables, input: CreateTermInput, now = Date.now()) {
  const { topics, versions } = tables;
  write(db, (tx) => {
    const existing = tx.select().from(topics).where(eq(topics.topic, input.topic)).get();
    const version = existing ? existing.latestVersion + 1 : 1;
    tx.insert(versions)
      .values({
        topic: input.topic,
        version,
        isEssential: input.isEssential ?? true,
        isVisible: input.isVisible ?? true,
        order: input.order ?? 0,
        titleKo: input.title?.ko ?? "",
        titleEn: input.title?.en ?? "",
        documentUrlKo: input.documentUrl?.ko ?? "",
        documentUrlEn: input.documentUrl?.en ?? "",
        consentTtlDays: input.consentTtlDays ?? null,
        isActive: true,
        createdAt: now,
        updatedAt: now,
      })
      .run();
    if (existing) {
      tx.update(topics).set({ currentVersion: version, latestVersion: version }).where(eq(topics.topic, input.topic)).run();
    } else {
      tx.insert(topics).values({ topic: input.topic, currentVersion: 1, latestVersion: 1, createdAt: now }).run();
    }
  });
  return listTerms(db, tables, now);
}

/** Edits the topic's current version in place. */
export function updateTerm(db: Db, tables: TermTables, topic: string, input: UpdateTermInput, now = Date.now()) {
  const { versions } = tables;
  write(db, (tx) => {
    const row = currentTermRow(tx, tables, topic);
    if (!row) throw notFound();
    tx.update(versions)
      .set({
        ...(input.isEssential !== undefined ? { isEssential: input.isEssential } : {}),
        ...(input.isVisible !== undefined ? { isVisible: input.isVisible } : {}),
        ...(input.order !== undefined ? { order: input.order } : {}),
        ...(input.consentTtlDays !== undefined ? { consentTtlDays: input.consentTtlDays } : {}),
        ...(input.isActive !== undefined ? { isActive: input.isActive } : {}),
        ...(input.title ? { titleKo: input.title.ko, titleEn: input.title.en } : {}),
        ...(input.documentUrl ? { documentUrlKo: input.documentUrl.ko, documentUrlEn: input.documentUrl.en } : {}),
        updatedAt: now,
      })
      .where(and(eq(versions.topic, topic), eq(versions.version, row.version)))
      .run();
  });
  return listTerms(db, tables, now);
}

/** Selects an existing version as current; an unknown version is a bad reference (400). */
export function setCurrentTermVersion(db: Db, tables: TermTables, topic: string, currentVersion: number, now = Date.now()) {
  const { topics, versions } = tables;
  write(db, (tx) => {
    if (!tx.select().from(topics).where(eq(topics.topic, topic)).get()) throw notFound();
    const exists = tx
      .select({ v: versions.version })
      .from(versions)
      .where(and(eq(versions.topic, topic), eq(versions.version, currentVersion)))
      .get();
    if (!exists) throw invalid("currentVersion", "is not a version of this topic");
    tx.update(topics).set({ currentVersion }).where(eq(topics.topic, topic)).run();
  });
  return listTerms(db, tables, now);
}
