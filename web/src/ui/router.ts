import { useCallback, useSyncExternalStore } from "react";

// The URL holds the view: the path picks the screen, the query string its filters, sort, page and open record.
const subscribe = (cb: () => void) => {
  window.addEventListener("popstate", cb);
  return () => window.removeEventListener("popstate", cb);
};
const snapshot = () => window.location.pathname + window.location.search;

export function navigate(to: string, replace = false) {
  if (to === snapshot()) return;
  if (replace) history.replaceState(null, "", to);
  else history.pushState(null, "", to);
  window.dispatchEvent(new PopStateEvent("popstate"));
}

export function useLocation() {
  const href = useSyncExternalStore(subscribe, snapshot);
  const url = new URL(href, window.location.origin);
  return { path: url.pathname, search: url.searchParams };
}

/**
 * The query string as state: set({page: "2", q: null}) changes only those keys (null removes one);
 * an array value is a repeated key (`role=a&role=b`), read back with all().
 */
export function useSearch() {
  const { path, search } = useLocation();
  const set = useCallback((patch: Record<string, string | readonly string[] | null>, replace = false) => {
    const next = new URLSearchParams(window.location.search);
    for (const [k, v] of Object.entries(patch)) {
      next.delete(k);
      if (typeof v === "string") {
        if (v !== "") next.set(k, v);
      } else if (v) for (const item of v) next.append(k, item);
    }
    const qs = next.toString();
    navigate(`${window.location.pathname}${qs ? `?${qs}` : ""}`, replace);
  }, []);
  return { path, search, get: (k: string) => search.get(k), all: (k: string) => search.getAll(k), set };
}

/** The page number the URL asks for (1 when absent or not a number). */
export const pageOf = (search: URLSearchParams) => Number(search.get("page") ?? "1") || 1;
