import { and, desc, eq, getTableName, gt, isNull, or } from "drizzle-orm";
import type { Static } from "elysia";
import { cachedByTables, frozen } from "../../platform/db/sqlite";
import { type Db, write } from "../../platform/db/types";
import { conflict, invalid, notFound } from "../../platform/http/errors";
import { iso, isoRequired } from "../../platform/http/schemas";
import type { Runtime } from "../../platform/runtime";
import type { TermTables } from "./columns";
import type { AgreementRecord, ConsentBody, DisplayAgreement, PendingAgreement } from "./model";
import { platformTermTables } from "./platform-tables";
import { currentTermRow, currentTermRows, type TermVersionRow, toDisplayAgreement } from "./service";
import { tenantTermTables, termConsents } from "./tables";

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Who consents: the platform identity is the verified platform account the session proved (its
 * `accountId`), else the member alone; the tenant identity is the member.
 */
export type ConsentParty = { accountId: string | null; tenantId: string; memberId: string; db: Db };

type ConsentRow = TermTables["consents"]["$inferSelect"];
type Side = { tables: TermTables; db: Db; subject: string };

/** Never the member's e-mail: a tenant admin can type any e-mail into a member, which proves nothing. */
export function platformSubject(p: { accountId: string | null; tenantId: string; memberId: string }): string {
  return p.accountId ? `account:${p.accountId}` : `member:${p.tenantId}:${p.memberId}`;
}

function sides(rt: Runtime, p: ConsentParty): { platform: Side; tenant: Side } {
  return {
    platform: { tables: platformTermTables, db: rt.platform.db, subject: platformSubject(p) },
    tenant: { tables: tenantTermTables, db: p.db, subject: p.memberId },
  };
}

const isEffective = (r: ConsentRow, now: number) => r.withdrawnAt === null && (r.expiresAt === null || r.expiresAt > now);

function toRecord(scope: TermTables["scope"], r: ConsentRow, now: number): Static<typeof AgreementRecord> {
  return {
    scope,
    topic: r.topic,
    version: r.version,
    isEssential: r.isEssential,
    agreedAt: isoRequired(r.agreedAt),
    expiresAt: iso(r.expiresAt),
    withdrawnAt: iso(r.withdrawnAt),
    isEffective: isEffective(r, now),
  };
}

const toDisplay = (scope: TermTables["scope"], row: TermVersionRow): Static<typeof DisplayAgreement> => toDisplayAgreement(scope, row);

/** The subject's consent records, newest first. */
function recordsOf(side: Side): ConsentRow[] {
  const c = side.tables.consents;
  return side.db.select().from(c).where(eq(c.subject, side.subject)).orderBy(desc(c.agreedAt), desc(c.id)).all();
}

const activeTerms = (db: Db, tables: TermTables) => currentTermRows(db, tables).filter((r) => r.isActive);

/** Active terms at their current version that the subject has no effective consent to. */
function pendingOf(side: Side, now: number): Static<typeof PendingAgreement>[] {
  const records = recordsOf(side);
  const out: Static<typeof PendingAgreement>[] = [];
  for (const term of activeTerms(side.db, side.tables)) {
    const mine = records.filter((r) => r.topic === term.topic);
    if (mine.some((r) => r.version === term.version && isEffective(r, now))) continue;
    const latest = mine[0];
    const reason = !latest
      ? "never-agreed"
      : latest.withdrawnAt !== null
        ? "withdrawn"
        : latest.version !== term.version
          ? "new-version"
          : "expired";
    out.push({ ...toDisplay(side.tables.scope, term), reason });
  }
  return out;
}

export function listMyAgreements(rt: Runtime, party: ConsentParty, now = Date.now()) {
  const { platform, tenant } = sides(rt, party);
  return {
    platformAgreements: recordsOf(platform).map((r) => toRecord("platform", r, now)),
    tenantAgreements: recordsOf(tenant).map((r) => toRecord("tenant", r, now)),
  };
}

export function listPendingAgreements(rt: Runtime, party: ConsentParty, now = Date.now()) {
  const { platform, tenant } = sides(rt, party);
  const platformAgreements = pendingOf(platform, now);
  const tenantAgreements = pendingOf(tenant, now);
  const needConsent = [...platformAgreements, ...tenantAgreements].some((a) => a.isEssential);
  return { needConsent, platformAgreements, tenantAgreements };
}

/**
 * SessionUser.needsAgreementConsent: an active essential term (platform or the tenant's) has no
 * effective consent of this member at its current version.
 */
export function needsAgreementConsent(rt: Runtime, party: ConsentParty, now = Date.now()): boolean {
  const { platform, tenant } = sides(rt, party);
  return [platform, tenant].some((side) => {
    // Every sign-in answers this: the essential terms come from a cache, and most files have none.
    const terms = essentialTerms(side.db, side.tables);
    if (!terms.length) return false;
    const records = recordsOf(side);
    return terms.some((term) => !records.some((r) => r.topic === term.topic && r.version === term.version && isEffective(r, now)));
  });
}

/**
 * The active essential terms at their current version. A tenant file's are cached until a write to its
 * terms' tables (docs/rules/performance.md#caches); the platform file's are read each time, since the
 * platform-terms command writes them through a connection of its own, which the cache's guards never see.
 */
function essentialTerms(db: Db, tables: TermTables): readonly TermVersionRow[] {
  const load = () => frozen(activeTerms(db, tables).filter((t) => t.isEssential));
  if (tables.scope === "platform") return load();
  return cachedByTables(
    db,
    { name: "terms_essential", tables: [getTableName(tables.topics), getTableName(tables.versions)], max: 1 },
    "",
    load,
  );
}

/** Active terms for sign-up and consent screens: the platform's, plus the tenant's when one is given. */
export function listDisplayAgreements(rt: Runtime, tenantDb: Db | null) {
  return {
    platformAgreements: activeTerms(rt.platform.db, platformTermTables).map((r) => toDisplay("platform", r)),
    tenantAgreements: tenantDb ? activeTerms(tenantDb, tenantTermTables).map((r) => toDisplay("tenant", r)) : [],
  };
}

export function consentAgreements(rt: Runtime, party: ConsentParty, input: Static<typeof ConsentBody>, now = Date.now()) {
  const all = sides(rt, party);
  // Every item is checked before anything is written (the two scopes live in two files).
  const accepted = input.agreements.map((item, i) => {
    const side = all[item.scope];
    const term = currentTermRow(side.db, side.tables, item.topic);
    if (!term?.isActive) throw invalid(`agreements[${i}].topic`, "is not an active term");
    if (term.version !== item.version) throw invalid(`agreements[${i}].version`, "is not the current version of this term");
    return { side, term };
  });
  for (const scope of ["platform", "tenant"] as const) {
    const items = accepted.filter((a) => a.side === all[scope]);
    if (items.length === 0) continue;
    const side = all[scope];
    const c = side.tables.consents;
    write(side.db, (tx) => {
      for (const { term } of items) {
        const effective = tx
          .select({ id: c.id })
          .from(c)
          .where(
            and(
              eq(c.subject, side.subject),
              eq(c.topic, term.topic),
              eq(c.version, term.version),
              isNull(c.withdrawnAt),
              or(isNull(c.expiresAt), gt(c.expiresAt, now)),
            ),
          )
          .get();
        if (effective) continue;
        tx.insert(c)
          .values({
            id: Bun.randomUUIDv7(),
            subject: side.subject,
            topic: term.topic,
            version: term.version,
            isEssential: term.isEssential,
            agreedAt: now,
            expiresAt: term.consentTtlDays === null ? null : now + term.consentTtlDays * DAY_MS,
            withdrawnAt: null,
          })
          .run();
      }
    });
  }
  return listPendingAgreements(rt, party, now);
}

/** Withdraws the effective consents to an optional topic. */
export function withdrawAgreement(
  rt: Runtime,
  party: ConsentParty,
  input: { scope: "platform" | "tenant"; topic: string },
  now = Date.now(),
) {
  const side = sides(rt, party)[input.scope];
  const c = side.tables.consents;
  write(side.db, (tx) => {
    const term = currentTermRow(tx, side.tables, input.topic);
    if (!term) throw notFound();
    const live = and(
      eq(c.subject, side.subject),
      eq(c.topic, input.topic),
      isNull(c.withdrawnAt),
      or(isNull(c.expiresAt), gt(c.expiresAt, now)),
    );
    if (!tx.select({ id: c.id }).from(c).where(live).get()) throw notFound();
    if (term.isEssential) throw conflict("INVALID_STATE", "An essential agreement cannot be withdrawn.");
    tx.update(c).set({ withdrawnAt: now }).where(live).run();
  });
  return listMyAgreements(rt, party, now);
}

/** Drops a deleted member's tenant consents: they name the member as subject (no foreign key) and would keep counting. */
export function forgetConsentsOf(tx: Db, memberId: string) {
  tx.delete(termConsents).where(eq(termConsents.subject, memberId)).run();
}
