import { Elysia } from "elysia";
import { changeGuardedCache } from "../db/sqlite";
import type { TenantHandle } from "../db/tenant-store";
import { bodyProblem } from "../http/body";
import { forbidden, unauthenticated } from "../http/errors";
import type { Runtime } from "../runtime";
import type { Actor, ActorMember, TokenClaims } from "./actor";

/**
 * The catalog's `auth` values (docs/rules/access.md#auth-values). Space and content rules need a tenant session here;
 * the record-level part is decided by the service through platform/access.ts.
 */
export type AuthRule =
  | "public"
  | "signedUrl"
  | "session"
  | "spaceAdmin"
  | "spaceMember"
  | "contentManager"
  | "contentViewer"
  | `permission:${string}`;

const actors = new WeakMap<Request, Actor>();

type SessionRow = { revoked_at: number | null; absolute_expires_at: number };

const sessionCaches = new WeakMap<Runtime, (sid: string, load: () => SessionRow | null) => SessionRow | null>();

/** The session's revocation and expiry, cached until the platform file's next write (sign-out, rotation…). */
function sessionRow(rt: Runtime, sid: string): SessionRow | null {
  let cache = sessionCaches.get(rt);
  if (!cache) {
    cache = changeGuardedCache<SessionRow | null>(rt.platform.sqlite, 10_000);
    sessionCaches.set(rt, cache);
  }
  return cache(
    sid,
    () => rt.platform.sqlite.query("SELECT revoked_at, absolute_expires_at FROM sessions WHERE id = ?").get(sid) as SessionRow | null,
  );
}

/** Whether the session is still usable (not revoked, not expired): a long-lived stream asks it as it goes. */
export function sessionAlive(rt: Runtime, sid: string, now = Date.now()): boolean {
  const session = sessionRow(rt, sid);
  return session !== null && session.revoked_at === null && session.absolute_expires_at > now;
}

/**
 * The permission set of a member as cached by its resolver: built once per cached permission list (members
 * of one role share theirs), not per request (docs/rules/performance.md#per-request-work).
 */
const permissionSets = new WeakMap<object, ReadonlySet<string>>();
function permissionSetOf(member: { permissions: string[] }): ReadonlySet<string> {
  let set = permissionSets.get(member.permissions);
  if (!set) {
    set = new Set(member.permissions);
    permissionSets.set(member.permissions, set);
  }
  return set;
}

/**
 * Token → Actor: 401 for a missing, bad, expired or revoked token; 403 NO_TENANT without a tenant.
 * At once, without a promise, for a token verified before (docs/rules/performance.md#per-request-work).
 */
export function authenticate(rt: Runtime, request: Request): Actor | Promise<Actor> {
  const header = request.headers.get("authorization");
  const token = header ? bearerToken(header) : null;
  if (!token) throw unauthenticated();
  const claims = rt.tokens.verify(token);
  return claims instanceof Promise ? claims.then((c) => actorOf(rt, c)) : actorOf(rt, claims);
}

/** A bearer header's token: the scheme name is case-insensitive (RFC 9110 §11.1); null when malformed. */
const BEARER = /^bearer\s+(\S+)\s*$/i;
function bearerToken(header: string): string | null {
  // The usual form, "Bearer <token>", without the regex (docs/rules/performance.md#per-request-work). Other
  // whitespace inside (a no-break space) the regex would refuse is no token's either: verify refuses it.
  if (header.startsWith("Bearer ") && header.charCodeAt(7) > 32) {
    const token = header.slice(7);
    if (token.indexOf(" ") === -1 && token.indexOf("\t") === -1) return token;
  }
  return BEARER.exec(header)?.[1] ?? null;
}

/**
 * The Actor of a cached member for one session's claims and handle: the same object while none of them
 * changes (a member reloaded after a write to its tables is a new object), not a copy per request
 * (docs/rules/performance.md#per-request-work). Shared by that session's requests: never mutated.
 */
const actorsOfMember = new WeakMap<object, Actor>();
function actorFor(member: ActorMember, claims: TokenClaims, handle: TenantHandle): Actor {
  const known = actorsOfMember.get(member);
  if (
    known &&
    known.sessionId === claims.sid &&
    known.accountId === claims.acc &&
    known.tenantId === claims.tid &&
    known.tenantKey === claims.tkey &&
    known.handle === handle
  ) {
    return known;
  }
  const actor: Actor = {
    ...member,
    sessionId: claims.sid,
    accountId: claims.acc,
    tenantId: claims.tid as string,
    tenantKey: claims.tkey as string,
    handle,
    db: handle.db,
    permissionSet: permissionSetOf(member),
  };
  actorsOfMember.set(member, actor);
  return actor;
}

function actorOf(rt: Runtime, claims: TokenClaims | null): Actor {
  if (!claims) throw unauthenticated();
  const session = sessionRow(rt, claims.sid);
  if (!session || session.revoked_at !== null || session.absolute_expires_at <= Date.now()) throw unauthenticated();
  if (!claims.tid || !claims.tkey || !claims.sub) throw forbidden("NO_TENANT", "This session is not bound to a tenant.");
  const handle = rt.tenants.acquire(claims.tid);
  try {
    const member = rt.resolveMember(handle, claims.sub);
    if (!member?.isActive) throw unauthenticated();
    return actorFor(member, claims, handle);
  } catch (e) {
    rt.tenants.release(handle);
    throw e;
  }
}

/** Releases the tenant handle a request's Actor held; called once per request by the http plugin, which logs who it was. */
export function releaseActor(rt: Runtime, request: Request): Actor | undefined {
  const actor = actors.get(request);
  if (actor) {
    actors.delete(request);
    rt.tenants.release(actor.handle);
  }
  return actor;
}

/**
 * The `auth` macro. Authentication runs in `transform`, before validation, so the check order of
 * docs/rules/errors.md#check-order holds (401, then permission 403, then 400); the Actor is resolved for the handler.
 */
export function authPlugin(rt: Runtime) {
  return new Elysia({ name: "learnspace.auth" }).macro({
    auth: (rule: AuthRule) => {
      const open = rule === "public" || rule === "signedUrl";
      const permission = rule.startsWith("permission:") ? rule.slice(11) : null;
      return {
        async transform({ request }: { request: Request }) {
          if (!open) {
            const found = authenticate(rt, request);
            const actor = found instanceof Promise ? await found : found;
            actors.set(request, actor);
            if (permission !== null && !actor.permissionSet.has(permission)) throw forbidden();
          }
          const refused = bodyProblem(request);
          if (refused) throw refused;
        },
        resolve({ request }: { request: Request }) {
          return { actor: actors.get(request) as Actor };
        },
      };
    },
  });
}
