import { createContext, type ReactNode, useCallback, useContext, useEffect, useState } from "react";
import { api, setAccessToken } from "../api/client";
import type { paths } from "../api/schema";

export type SessionUser = paths["/api/v1/auth/session/refresh"]["post"]["responses"]["200"]["content"]["application/json"]["user"];
type State = { status: "loading" } | { status: "signedOut" } | { status: "signedIn"; user: SessionUser };
type Session = State & { signOut: () => Promise<void>; reload: () => Promise<void> };

const TENANT_KEY = "learnspace.tenantKey";
const Ctx = createContext<Session | null>(null);
/** The school whose hosted sign-in page to send a signed-out visitor to (not a secret). */
export const lastTenantKey = () => localStorage.getItem(TENANT_KEY);

// The first refreshSession leaves as soon as the script runs, before React renders.
let firstRefresh: ReturnType<typeof callRefresh> | null = null;
function callRefresh() {
  return api.POST("/api/v1/auth/session/refresh");
}
/** Starts the first refresh; the token is in place before anyone awaiting the returned promise resumes. */
export function startSession() {
  firstRefresh ??= callRefresh().then((r) => {
    if (r.data) setAccessToken(r.data.accessToken);
    return r;
  });
  return firstRefresh;
}

/** refreshSession on load (the HttpOnly cookie is the session), then again a minute before the access token expires. */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<State>({ status: "loading" });
  const refresh = useCallback(async () => {
    window.clearTimeout(timer); // reload() after a password change or a consent: one timer, not two
    const pending = firstRefresh ?? callRefresh();
    firstRefresh = null;
    const { data } = await pending;
    if (!data) {
      setAccessToken(null);
      setState({ status: "signedOut" });
      return;
    }
    setAccessToken(data.accessToken);
    if (data.user.tenantKey) localStorage.setItem(TENANT_KEY, data.user.tenantKey);
    setState({ status: "signedIn", user: data.user });
    const wait = Math.max(10_000, Date.parse(data.accessTokenExpiresAt) - Date.now() - 60_000);
    timer = window.setTimeout(() => void refresh(), wait);
  }, []);
  useEffect(() => {
    void refresh();
    return () => window.clearTimeout(timer);
  }, [refresh]);
  const signOut = useCallback(async () => {
    window.clearTimeout(timer);
    await api.POST("/api/v1/auth/session/sign-out");
    setAccessToken(null);
    setState({ status: "signedOut" });
  }, []);
  return <Ctx.Provider value={{ ...state, signOut, reload: refresh }}>{children}</Ctx.Provider>;
}
let timer = 0;

export function useSession(): Session {
  const v = useContext(Ctx);
  if (!v) throw new Error("useSession outside SessionProvider");
  return v;
}

/** The signed-in member (screens render only inside a signed-in shell). */
export function useUser(): SessionUser {
  const s = useSession();
  if (s.status !== "signedIn") throw new Error("not signed in");
  return s.user;
}

export const can = (user: SessionUser, permission: string | null) => permission === null || user.permissions.includes(permission);
