import { and, eq, lt } from "drizzle-orm";
import { type TenantRow, tenantById, tenantByKey } from "../../platform/db/registry";
import { type Db, write } from "../../platform/db/types";
import { invalid, notFound, providerUnavailable } from "../../platform/http/errors";
import { guardedFetch } from "../../platform/http/outbound";
import type { Runtime } from "../../platform/runtime";
import { members } from "../../schema/members";
import { membershipsOf, proveMemberEmail } from "../auth/identity";
import { startSession } from "../auth/session";
import {
  activeOnly,
  bindingCookie,
  type MemberRow,
  memberForSignIn,
  Refusal,
  redirectUrl,
  requireBinding,
  stateBinding,
} from "./browser-sign-in";
import { authorizationUrl, discover, type IdClaims, redeemCode } from "./oidc-client";
import { isSocialKey, type ResolvedProvider, resolveOidcProvider } from "./oidc-providers";
import { oidcStates } from "./platform-tables";
import { externalLinks } from "./tables";

/** External sign-in over OpenID Connect (docs/rules/sign-in.md#openid-connect). */

const STATE_TTL_MS = 10 * 60 * 1000;
type SessionType = "personal" | "public";

/** Requests to a provider go through the outbound guard (docs/rules/trust.md#server-side-fetches). */
const fetchers = new WeakMap<Runtime, ReturnType<typeof guardedFetch>>();
function outboundFetch(rt: Runtime) {
  let f = fetchers.get(rt);
  if (!f) {
    f = guardedFetch(rt.config.fetchAllow);
    fetchers.set(rt, f);
  }
  return f;
}

const callbackPath = (provider: string) => `/api/v1/auth/external/${encodeURIComponent(provider)}/callback`;
const stateCookie = (rt: Runtime, provider: string, state: string, cleared = false) =>
  bindingCookie(rt, stateBinding(rt, "oidc-state", "lsp_oidc", state), {
    path: callbackPath(provider),
    maxAgeSeconds: STATE_TTL_MS / 1000,
    cleared,
    crossSitePost: false,
  });

/**
 * startExternalSignIn for an OpenID Connect provider: the authorization URL, and the cookie binding
 * its state to this browser. Unknown or unavailable: 404; provider unreachable: 503.
 */
export async function startOidcSignIn(
  rt: Runtime,
  provider: string,
  input: { tenantKey?: string; sessionType?: SessionType; returnTo?: string },
  now = Date.now(),
): Promise<{ url: string; cookie: string }> {
  const tenant = input.tenantKey ? tenantByKey(rt.platform.db, input.tenantKey) : null;
  if (input.tenantKey && !tenant) throw notFound();
  const resolved = tenant
    ? rt.tenants.use(tenant.id, (h) => resolveOidcProvider(rt, h.db, provider))
    : resolveOidcProvider(rt, null, provider);
  if ("refusal" in resolved) throw notFound("No such sign-in provider is available.");
  let started: Awaited<ReturnType<typeof authorizationUrl>>;
  try {
    started = await authorizationUrl(
      await discover(resolved.client, outboundFetch(rt), now),
      resolved.client,
      `${rt.config.publicUrl}${callbackPath(provider)}`,
    );
  } catch (e) {
    rt.log({ level: "warn", event: "oidc-provider-unavailable", provider, reason: (e as Error).message });
    throw providerUnavailable();
  }
  const { pending } = started;
  write(rt.platform.db, (tx) => {
    tx.delete(oidcStates).where(lt(oidcStates.expiresAt, now)).run();
    tx.insert(oidcStates)
      .values({
        state: pending.state,
        provider,
        tenantId: tenant?.id ?? null,
        returnTo: input.returnTo ?? "/",
        sessionType: input.sessionType ?? null,
        nonce: pending.nonce,
        codeVerifier: pending.codeVerifier,
        expiresAt: now + STATE_TTL_MS,
      })
      .run();
  });
  return { url: started.url, cookie: stateCookie(rt, provider, pending.state) };
}

/** Uses up the state: missing, unknown (or of another provider), expired or used is 400 (no trusted returnTo). */
function takeState(rt: Runtime, provider: string, state: string | undefined, now: number) {
  if (!state) throw invalid("state", "is required", "query");
  return write(rt.platform.db, (tx) => {
    const row = tx
      .select()
      .from(oidcStates)
      .where(and(eq(oidcStates.state, state), eq(oidcStates.provider, provider)))
      .get();
    if (row) tx.delete(oidcStates).where(eq(oidcStates.state, state)).run();
    if (!row || row.expiresAt <= now) throw invalid("state", "is unknown, expired or already used", "query");
    return row;
  });
}

/** The verified e-mail of the claims (lowercased), or null. */
const verifiedEmail = (claims: IdClaims) =>
  typeof claims.email === "string" && claims.email_verified === true ? claims.email.trim().toLowerCase() : null;

/**
 * The member of a verified ID token in one tenant: by the (provider, sub) link first, else by the
 * verified e-mail (provisioned for partners when the tenant allows it); the link is then recorded.
 */
function matchMember(rt: Runtime, tx: Db, tenant: TenantRow, p: ResolvedProvider, claims: IdClaims, now: number): MemberRow {
  const link = tx
    .select({ memberId: externalLinks.memberId })
    .from(externalLinks)
    .where(and(eq(externalLinks.provider, p.client.key), eq(externalLinks.subject, claims.sub)))
    .get();
  const linked = link ? tx.select().from(members).where(eq(members.id, link.memberId)).get() : undefined;
  if (linked) return activeOnly(linked);
  const email = verifiedEmail(claims);
  if (!email) throw new Refusal("NOT_A_MEMBER", "no link and no verified e-mail in the ID token");
  const name = typeof claims.name === "string" ? claims.name : undefined;
  const member = memberForSignIn(rt, tx, tenant, { email, displayName: name, provision: p.provisionMembers }, now);
  // The operator's social provider vouches for the address; a tenant's own partner IdP does not
  // (docs/rules/trust.md#e-mails-an-administrator-typed).
  if (p.kind === "social") proveMemberEmail(tx, member.id, email, now);
  tx.insert(externalLinks)
    .values({ provider: p.client.key, subject: claims.sub, memberId: member.id, createdAt: now })
    .onConflictDoUpdate({ target: [externalLinks.provider, externalLinks.subject], set: { memberId: member.id, createdAt: now } })
    .run();
  return member;
}

/** Without a tenant at start (social only), the tenant is chosen as signInWithPassword does: owned, else the only one. */
function chooseTenant(rt: Runtime, claims: IdClaims): TenantRow {
  const email = verifiedEmail(claims);
  if (!email) throw new Refusal("NOT_A_MEMBER", "no verified e-mail in the ID token to choose a tenant by");
  const list = membershipsOf(rt, email);
  const chosen = list.find((m) => m.owned) ?? (list.length === 1 ? list[0] : undefined);
  if (!chosen) throw new Refusal("NOT_A_MEMBER", list.length ? "member of several tenants: start with tenantKey" : "member of no tenant");
  return chosen.tenant;
}

/** A check failure for the log: the library's message and that of its cause (which names the claim). */
function failureOf(e: unknown): string {
  const parts: string[] = [];
  for (let x: unknown = e, i = 0; x instanceof Error && i < 3; x = x.cause, i++) parts.push(`${x.name}: ${x.message}`);
  return parts.join(" <- ").slice(0, 1000);
}

function usable(rt: Runtime, db: Db, provider: string): ResolvedProvider {
  const resolved = resolveOidcProvider(rt, db, provider);
  if ("refusal" in resolved) throw new Refusal(resolved.refusal, "provider not available in this tenant since start");
  return resolved;
}

/**
 * completeExternalSignIn: where the browser goes (302) and its cookies: the refresh cookie on
 * success, and always the state binding cleared. Any refusal after a valid state is a redirect to
 * returnTo with `error=CODE`; the reason goes to the log line only.
 */
export async function completeOidcSignIn(
  rt: Runtime,
  provider: string,
  request: Request,
  query: { state?: string; code?: string; error?: string },
  now = Date.now(),
): Promise<{ location: string; cookies: string[] }> {
  const state = takeState(rt, provider, query.state, now);
  const cleared = stateCookie(rt, provider, state.state, true);
  let tenant: TenantRow | null = null;
  try {
    requireBinding(rt, request, stateBinding(rt, "oidc-state", "lsp_oidc", state.state), false);
    if (query.error) throw new Refusal("SSO_FAILED", `provider answered error=${query.error.slice(0, 200)}`);
    tenant = state.tenantId ? tenantById(rt.platform.db, state.tenantId) : null;
    if (state.tenantId && !tenant) throw new Refusal("SSO_DISABLED", "tenant gone since start");
    const atStart = tenant ? rt.tenants.use(tenant.id, (h) => usable(rt, h.db, provider)) : resolveOidcProvider(rt, null, provider);
    if ("refusal" in atStart) throw new Refusal(atStart.refusal, "provider not configured since start");
    let claims: IdClaims;
    try {
      const callbackUrl = new URL(`${rt.config.publicUrl}${callbackPath(provider)}${new URL(request.url).search}`);
      claims = await redeemCode(await discover(atStart.client, outboundFetch(rt), now), atStart.client, callbackUrl, state);
    } catch (e) {
      throw new Refusal("SSO_FAILED", failureOf(e));
    }
    if (!tenant && !isSocialKey(provider)) throw new Refusal("SSO_DISABLED", "a partner provider needs a tenant");
    const chosen = tenant ?? chooseTenant(rt, claims);
    tenant = chosen;
    const member = rt.tenants.use(chosen.id, (h) => {
      const p = usable(rt, h.db, provider);
      return write(h.db, (tx) => matchMember(rt, tx, chosen, p, claims, now));
    });
    const issued = await startSession(
      rt,
      { tenant: chosen, memberId: member.id, email: member.email ?? "", accountId: null },
      state.sessionType ?? undefined,
      now,
    );
    return { location: redirectUrl(rt, state.returnTo), cookies: [issued.cookie, cleared] };
  } catch (e) {
    if (!(e instanceof Refusal)) throw e;
    rt.log({ level: "warn", event: "oidc-refused", provider, tenantKey: tenant?.key ?? null, code: e.code, reason: e.reason });
    return { location: redirectUrl(rt, state.returnTo, e.code), cookies: [cleared] };
  }
}
