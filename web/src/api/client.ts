import createClient, { type FetchOptions } from "openapi-fetch";
import { ApiError, type FieldError } from "./problem";
import type { paths } from "./schema";

export { ApiError, type FieldError } from "./problem";

/** The access token lives only here, in memory; the refresh cookie (HttpOnly) restores it on load. */
let accessToken: string | null = null;
export const setAccessToken = (token: string | null) => {
  accessToken = token;
};

/** The bearer header for the one request openapi-fetch cannot make: an upload PUT whose progress is shown (XMLHttpRequest). */
export const authorization = () => (accessToken ? `Bearer ${accessToken}` : null);

/** The only place a request is made: every call is typed by the generated `paths`. */
export const api = createClient<paths>({ baseUrl: "", credentials: "same-origin" });
api.use({
  onRequest({ request }) {
    if (accessToken) request.headers.set("authorization", `Bearer ${accessToken}`);
    return request;
  },
});

/** What a call of one operation takes (params and body), as the generated `paths` type it: the area modules' write functions take this. */
export type Init<P extends keyof paths, M extends keyof paths[P]> = FetchOptions<paths[P][M]>;

/** The query string a GET operation takes, as the generated `paths` type it (for the query modules' parameters). */
export type QueryOf<P extends keyof paths> = paths[P] extends { get: { parameters: { query?: infer Q } } } ? NonNullable<Q> : never;

/**
 * The options of a keyset-paged list read a page at a time (useInfiniteQuery): `page(cursor)` asks
 * for one page, the next starts at its `nextCursor`, and a null cursor is the end.
 */
export const cursorPages = <K extends readonly unknown[], T extends { nextCursor?: string | null }>(
  queryKey: K,
  page: (cursor: string | undefined) => Promise<T>,
) => ({
  queryKey,
  initialPageParam: undefined as string | undefined,
  queryFn: ({ pageParam }: { pageParam: string | undefined }) => page(pageParam),
  getNextPageParam: (last: T) => last.nextCursor ?? undefined,
});

/** The data of a call, or throws its problem as an ApiError. */
export async function ok<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok) {
    const p = (error ?? {}) as { code?: string; errors?: FieldError[] };
    throw new ApiError(response.status, p.code ?? "INTERNAL", p.errors ?? []);
  }
  return data as T;
}
