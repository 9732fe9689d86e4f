import { eq, lt } from "drizzle-orm";
import { nodeCrypto } from "../../platform/crypto";
import type { TenantRow } from "../../platform/db/registry";
import type { TenantHandle } from "../../platform/db/tenant-store";
import { type Db, write } from "../../platform/db/types";
import { invalid, notFound, Problem } from "../../platform/http/errors";
import type { Runtime } from "../../platform/runtime";
import { members } from "../../schema/members";
import { startSession } from "../auth/session";
import { fieldsOf } from "../fields/lookup";
import type { FieldValueInput } from "../fields/values";
import { upsertMemberFieldValues } from "../members/field-values";
import {
  bindingCookie,
  checkReturnTo,
  cleanDisplayName,
  memberForSignIn,
  Refusal,
  redirectUrl,
  requireBinding,
  stateBinding,
  tenantOr404,
} from "./browser-sign-in";
import type { SamlClaims } from "./saml-verify";
import { isIdpConfigured, readSso, spUrls } from "./service";
import { samlRequests, samlSeenAssertions } from "./tables";

const STATE_TTL_MS = 10 * 60 * 1000;
const xmlEscape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
export const NAMEID_EMAIL = "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress";

/** SP metadata: entityID = spEntityId, one ACS with the HTTP-POST binding. Served while SSO is off too. */
export function samlMetadata(rt: Runtime, tenantKey: string): string {
  const tenant = tenantOr404(rt, tenantKey);
  const { spEntityId, spAcsUrl } = spUrls(rt, tenant.key);
  return `<?xml version="1.0" encoding="UTF-8"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="${xmlEscape(spEntityId)}">
  <md:SPSSODescriptor AuthnRequestsSigned="false" WantAssertionsSigned="true" protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
    <md:NameIDFormat>${NAMEID_EMAIL}</md:NameIDFormat>
    <md:AssertionConsumerService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${xmlEscape(spAcsUrl)}" index="0" isDefault="true"/>
  </md:SPSSODescriptor>
</md:EntityDescriptor>
`;
}

/** The RelayState's binding cookie, scoped to the ACS; the IdP posts cross-site. */
const relayBinding = (rt: Runtime, relayState: string) => stateBinding(rt, "saml-relay-state", "lsp_saml", relayState);
function relayCookie(rt: Runtime, tenantKey: string, relayState: string, cleared = false): string {
  const path = new URL(spUrls(rt, tenantKey).spAcsUrl).pathname;
  return bindingCookie(rt, relayBinding(rt, relayState), { path, maxAgeSeconds: STATE_TTL_MS / 1000, cleared, crossSitePost: true });
}

/** SP-initiated sign-in: saves a one-use state and redirects to the IdP (HTTP-Redirect binding), binding the state to this browser. */
export function startSamlSignIn(
  rt: Runtime,
  tenantKey: string,
  query: { returnTo?: string; sessionType?: "personal" | "public" },
  now = Date.now(),
): { location: string; cookie: string } {
  const returnTo = checkReturnTo(query.returnTo);
  const tenant = tenantOr404(rt, tenantKey);
  const { spEntityId, spAcsUrl } = spUrls(rt, tenant.key);
  return rt.tenants.use(tenant.id, (h) => {
    const sso = readSso(h.db);
    if (!sso.enabled || !isIdpConfigured(sso) || !sso.idpSsoUrl) throw notFound();
    const relayState = nodeCrypto().randomBytes(24).toString("base64url");
    const requestId = `_${nodeCrypto().randomBytes(20).toString("hex")}`;
    write(h.db, (tx) => {
      tx.delete(samlRequests).where(lt(samlRequests.expiresAt, now)).run();
      tx.insert(samlRequests)
        .values({ relayState, requestId, returnTo, sessionType: query.sessionType ?? null, expiresAt: now + STATE_TTL_MS })
        .run();
    });
    const request =
      `<samlp:AuthnRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion"` +
      ` ID="${requestId}" Version="2.0" IssueInstant="${new Date(now).toISOString()}" Destination="${xmlEscape(sso.idpSsoUrl)}"` +
      ` AssertionConsumerServiceURL="${xmlEscape(spAcsUrl)}" ProtocolBinding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST">` +
      `<saml:Issuer>${xmlEscape(spEntityId)}</saml:Issuer>` +
      `<samlp:NameIDPolicy Format="${NAMEID_EMAIL}" AllowCreate="true"/>` +
      `</samlp:AuthnRequest>`;
    const url = new URL(sso.idpSsoUrl);
    // Raw DEFLATE, as node:zlib's deflateRawSync (same bytes), without loading node:zlib at every start (docs/rules/performance.md#start).
    url.searchParams.append("SAMLRequest", Buffer.from(Bun.deflateSync(Buffer.from(request))).toString("base64"));
    url.searchParams.append("RelayState", relayState);
    const cookie = relayCookie(rt, tenant.key, relayState);
    return { location: url.toString(), cookie };
  });
}

/** Uses up the RelayState: a missing, unknown, expired or used one is 400 (no trusted returnTo). */
function takeState(db: Db, relayState: string, now: number) {
  return write(db, (tx) => {
    const row = tx.select().from(samlRequests).where(eq(samlRequests.relayState, relayState)).get();
    if (row) tx.delete(samlRequests).where(eq(samlRequests.relayState, relayState)).run();
    if (!row || row.expiresAt <= now) throw invalid("RelayState", "is unknown, expired or already used");
    return row;
  });
}

const MEMBER_COLUMNS = ["displayName", "affiliation", "externalMemberCode", "bio"] as const;

/** An attribute's text as the value of a custom field of this type; null when it cannot be one. */
function fieldValueOf(type: string, fieldId: string, text: string): FieldValueInput | null {
  const trimmed = text.trim();
  if (trimmed === "") return { fieldId };
  if (type === "NUMBER") {
    const n = Number(trimmed);
    return Number.isFinite(n) ? { fieldId, valueNumber: n } : null;
  }
  if (type === "DATE") {
    const ms = Date.parse(trimmed);
    return Number.isNaN(ms) ? null : { fieldId, valueDate: new Date(ms).toISOString() };
  }
  return { fieldId, valueText: text.slice(0, 10000) };
}

/** Finds (or provisions) the member of a verified assertion and refreshes its mapped columns. */
function resolveSsoMember(
  rt: Runtime,
  h: TenantHandle,
  tenant: TenantRow,
  claims: { nameId: string; attributes: Map<string, string[]> },
  now: number,
) {
  const sso = readSso(h.db);
  const mapped = (fieldId: string) => {
    const m = sso.attributeMappings.find((x) => x.fieldId === fieldId);
    return m ? claims.attributes.get(m.samlAttribute)?.[0] : undefined;
  };
  const email = (mapped("email") ?? claims.nameId).trim().toLowerCase();
  return write(h.db, (tx) => {
    const member = memberForSignIn(
      rt,
      tx,
      tenant,
      { email, displayName: mapped("displayName") ?? claims.attributes.get("displayName")?.[0], provision: sso.provisionMembers },
      now,
    );
    const updates: Partial<Record<(typeof MEMBER_COLUMNS)[number], string>> = {};
    for (const column of MEMBER_COLUMNS) {
      const value = mapped(column);
      if (value === undefined) continue;
      updates[column] = column === "displayName" ? cleanDisplayName(value, email) : value.slice(0, 1000);
    }
    if (Object.keys(updates).length)
      tx.update(members)
        .set({ ...updates, updatedAt: now })
        .where(eq(members.id, member.id))
        .run();
    // Mapped custom fields: a value that does not fit its field (type, options, length) is left out, not a refusal.
    const fields = new Map(fieldsOf(tx, "member").map((f) => [f.id, f]));
    for (const m of sso.attributeMappings) {
      const field = fields.get(m.fieldId);
      const text = field ? claims.attributes.get(m.samlAttribute)?.[0] : undefined;
      if (!field || text === undefined) continue;
      const value = fieldValueOf(field.type, field.id, text);
      let skipped = value ? undefined : `is not a ${field.type} value`;
      if (value)
        try {
          upsertMemberFieldValues(tx, member.id, [value]);
        } catch (e) {
          if (!(e instanceof Problem)) throw e;
          skipped = e.errors?.[0]?.message ?? e.message;
        }
      if (skipped) rt.log({ level: "warn", event: "saml-field-skipped", tenantKey: tenant.key, fieldId: field.id, reason: skipped });
    }
    return { memberId: member.id, email };
  });
}

/**
 * The ACS. Returns where to send the browser (303) and its cookies: the refresh cookie on success,
 * and always the RelayState binding cleared. Any refusal after a valid RelayState is a redirect to
 * returnTo with `error=CODE` (reason in the log only); a missing or wrong binding cookie is SSO_FAILED.
 */
export async function consumeSamlAssertion(
  rt: Runtime,
  tenantKey: string,
  form: { SAMLResponse: string; RelayState: string },
  request: Request,
  now = Date.now(),
): Promise<{ location: string; cookies: string[] }> {
  const tenant = tenantOr404(rt, tenantKey);
  // xml-crypto and xmldom load on the first SAML answer, not at start (docs/rules/performance.md#start).
  const { SamlCheckFailed, verifySamlResponse } = await import("./saml-verify");
  const state = rt.tenants.use(tenant.id, (h) => takeState(h.db, form.RelayState, now));
  const cleared = relayCookie(rt, tenant.key, form.RelayState, true);
  try {
    requireBinding(rt, request, relayBinding(rt, form.RelayState), true);
    const found = rt.tenants.use(tenant.id, (h) => {
      const sso = readSso(h.db);
      if (!sso.enabled || !isIdpConfigured(sso)) throw new Refusal("SSO_DISABLED", "SSO disabled or IdP unconfigured since start");
      const { spEntityId, spAcsUrl } = spUrls(rt, tenant.key);
      let claims: SamlClaims;
      try {
        const xml = Buffer.from(form.SAMLResponse.replace(/\s+/g, ""), "base64").toString("utf8");
        claims = verifySamlResponse(xml, {
          certBase64: sso.x509Cert!,
          idpEntityId: sso.idpEntityUrl!,
          spEntityId,
          spAcsUrl,
          requestId: state.requestId,
          now,
        });
      } catch (e) {
        throw new Refusal("SSO_FAILED", e instanceof SamlCheckFailed ? e.reason : `unexpected: ${(e as Error).message}`);
      }
      write(h.db, (tx) => {
        tx.delete(samlSeenAssertions).where(lt(samlSeenAssertions.expiresAt, now)).run();
        const seen = tx.select().from(samlSeenAssertions).where(eq(samlSeenAssertions.assertionId, claims.assertionId)).get();
        if (seen) throw new Refusal("SSO_FAILED", "replayed assertion");
        tx.insert(samlSeenAssertions).values({ assertionId: claims.assertionId, expiresAt: claims.keepUntil }).run();
      });
      return resolveSsoMember(rt, h, tenant, claims, now);
    });
    const issued = await startSession(
      rt,
      { tenant, memberId: found.memberId, email: found.email, accountId: null },
      state.sessionType ?? undefined,
      now,
    );
    return { location: redirectUrl(rt, state.returnTo), cookies: [issued.cookie, cleared] };
  } catch (e) {
    if (!(e instanceof Refusal)) throw e;
    rt.log({ level: "warn", event: "saml-refused", tenantKey: tenant.key, code: e.code, reason: e.reason });
    return { location: redirectUrl(rt, state.returnTo, e.code), cookies: [cleared] };
  }
}
