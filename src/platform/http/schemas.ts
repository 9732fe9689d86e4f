import { FormatRegistry, type IntegerOptions, type TSchema, type TUnsafe, Type } from "@sinclair/typebox";
import { t } from "elysia";

/**
 * An integer in a JSON body or a response: a JSON number, never a numeric string (Elysia's
 * `t.Integer` also decodes "5", "1e3" or " "). Query parameters keep `t.Integer`, which is what
 * turns their text into numbers.
 */
export const Int = (options?: IntegerOptions) => Type.Integer(options);

// An e-mail address of at most 255 characters, not starting with a dot, no "..".
const EMAIL =
  /^(?!\.)(?!.*\.\.)[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;
// A password: letters, digits and this punctuation; at least two of the three kinds.
const PASSWORD_CHARS = /^[\p{L}\p{N}!@#$%^&*()\-=_+~|[\]{}:;'<>,.?/"]+$/u;
// A display name: letters, digits, spaces and _ - [ ] ( ) { } / *.
const DISPLAY_NAME = /^[\p{L}\p{M}\p{N} _\-[\](){}/*]+$/u;

export function isPassword(v: string): boolean {
  if (!PASSWORD_CHARS.test(v)) return false;
  const kinds = [/\p{L}/u, /\p{N}/u, /[^\p{L}\p{N}]/u].filter((k) => k.test(v)).length;
  return kinds >= 2;
}

FormatRegistry.Set("ls-email", (v) => EMAIL.test(v));
FormatRegistry.Set("ls-password", isPassword);
FormatRegistry.Set("ls-display-name", (v) => DISPLAY_NAME.test(v));
/**
 * An RFC 3339 date-time that names a real instant: the calendar date exists (no 30 February), the
 * clock is in range, and the year is 1000..9999.
 */
export function isDateTime(v: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i.exec(v);
  if (!m) return false;
  const [year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0] = [m[1], m[2], m[3], m[4], m[5], m[6] ?? "0"].map(Number);
  if (year < 1000 || month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return false;
  if (day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return false;
  return !Number.isNaN(Date.parse(v));
}
FormatRegistry.Set("ls-date-time", isDateTime);

/** An absolute http(s) URL with a host and no whitespace. */
export function isHttpUrl(v: string): boolean {
  if (/\s/.test(v)) return false;
  try {
    const u = new URL(v);
    return (u.protocol === "http:" || u.protocol === "https:") && u.hostname !== "";
  } catch {
    return false;
  }
}

/**
 * What a page may link to or load: an absolute http(s) URL, or a same-origin path (one leading
 * `/`, not `//` or `/\`, no whitespace or control characters). No javascript:, data: or other schemes.
 */
export function isLinkUrl(v: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  return isHttpUrl(v) || (/^\/(?![/\\])/.test(v) && !/[\s\x00-\x1f\x7f]/.test(v));
}

FormatRegistry.Set("ls-http-url", isHttpUrl);
FormatRegistry.Set("ls-link-url", isLinkUrl);

/** An absolute http(s) URL of at most maxLength characters. */
export const HttpUrl = (maxLength: number) =>
  t.String({ format: "ls-http-url", maxLength, error: `must be an absolute http(s) URL of at most ${maxLength} characters` });
/** An absolute http(s) URL or a same-origin path starting with a single `/`, of at most maxLength characters. */
export const LinkUrl = (maxLength: number) =>
  t.String({
    format: "ls-link-url",
    minLength: 1,
    maxLength,
    error: `must be an http(s) URL or a path starting with a single /, of at most ${maxLength} characters`,
  });

export const Email = t.String({
  format: "ls-email",
  maxLength: 255,
  error: "must be a valid e-mail address of at most 255 characters",
  description: "E-mail address (max 255; no leading dot, no '..'). Compared case-insensitively.",
});
export const Password = t.String({
  format: "ls-password",
  minLength: 8,
  maxLength: 255,
  error: "must be 8..255 characters of letters, digits and allowed punctuation, with at least two of these kinds",
});
export const DisplayName = t.String({
  format: "ls-display-name",
  minLength: 1,
  maxLength: 255,
  error: "must be 1..255 letters, digits, spaces or _ - [ ] ( ) { } / *",
});
/** The number of Unicode code points of v, counting no further than `stop`. */
function codePoints(v: string, stop: number): number {
  let n = 0;
  for (const _ of v) if (++n > stop) break;
  return n;
}

/**
 * A string of min..max characters, counted as Unicode code points: TypeBox's minLength/maxLength
 * count UTF-16 units, so an emoji outside the BMP (🔥) would count twice. Use it where the API's
 * "characters" may well be such symbols (ASCII-only fields such as Email need not).
 */
export function Chars(min: number, max: number, opts: { error?: string; description?: string } = {}) {
  const format = `ls-chars-${min}-${max}`;
  if (!FormatRegistry.Has(format)) {
    FormatRegistry.Set(format, (v) => {
      const n = codePoints(v, max);
      return n >= min && n <= max;
    });
  }
  return t.String({
    format,
    error: opts.error ?? `must be ${min}..${max} characters`,
    description: opts.description ?? `${min}..${max} characters (Unicode code points)`,
  });
}

/** The bound of free text the API gives no bound of its own (a space's description, semester, …): its largest description bound (content, 15000; docs/rules/conventions.md#values). */
export const FREE_TEXT_MAX = 15_000;
/** Free text with no length of its own: at most FREE_TEXT_MAX characters, so a 3 MiB "description" is a 400. */
export const FreeText = t.String({ maxLength: FREE_TEXT_MAX, error: `must be at most ${FREE_TEXT_MAX} characters` });

/** A member's login identifier (never an e-mail: memberByIdentifier matches userId or e-mail). */
export const UserId = t.String({
  minLength: 1,
  maxLength: 255,
  pattern: "^[A-Za-z0-9_-]+$",
  error: "must be 1..255 letters, digits, _ or -",
});
/** Input date-time: any ISO 8601 date-time with an offset. */
export const DateTimeInput = t.String({ format: "ls-date-time", error: "must be an ISO 8601 date-time with an offset" });
/** Output timestamp: ISO 8601 UTC with milliseconds. */
export const Timestamp = t.String({ format: "date-time", examples: ["2025-03-01T09:00:00.000Z"] });
export const Localized = t.Object({ ko: t.String(), en: t.String() });
export const SafeInt = (opts: { minimum?: number; maximum?: number } = {}) =>
  Int({ minimum: opts.minimum ?? -9007199254740991, maximum: opts.maximum ?? 9007199254740991 });
/** A string enumeration. (t.UnionEnum fills a default into absent optional fields, and t.String's enum is not checked.) */
export function Enum<const V extends string>(values: readonly V[], opts: { error?: string; description?: string; default?: V } = {}) {
  return t.Union(
    values.map((v) => t.Literal(v)),
    {
      error: opts.error ?? `must be one of: ${values.join(", ")}`,
      ...(opts.description ? { description: opts.description } : {}),
      ...(opts.default ? { default: opts.default } : {}),
    },
  ) as unknown as TUnsafe<V>;
}
/** Query booleans: only the literals true and false. */
export const QueryBool = Enum(["true", "false"], { error: "must be true or false" });
export const Nullable = <T extends TSchema>(s: T) => t.Union([s, t.Null()]);

/** The latest instant an output timestamp shows (9999-12-31T23:59:59.999Z): later computed times are capped to it. */
export const MAX_TIMESTAMP_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
export const iso = (ms: number | null | undefined): string | null => (ms == null ? null : new Date(ms).toISOString());
export const isoRequired = (ms: number): string => new Date(ms).toISOString();
export const parseTime = (v: string): number => Date.parse(v);

/** Page style (docs/rules/conventions.md#pages). */
export const PageQuery = {
  page: t.Optional(t.Integer({ minimum: 1, maximum: 9007199254740991, default: 1 })),
  pageSize: t.Optional(t.Integer({ minimum: 1, maximum: 100, default: 20 })),
};
export const PageFields = {
  total: Int(),
  page: Int(),
  pageSize: Int(),
  totalPages: Int(),
};
export function pageOf(total: number, page = 1, pageSize = 20) {
  return { total, page, pageSize, totalPages: Math.ceil(total / pageSize), offset: (page - 1) * pageSize };
}

/** Cursor style (docs/rules/conventions.md#cursors). */
export const CursorQuery = {
  cursor: t.Optional(t.String({ minLength: 1, maxLength: 2000 })),
  limit: t.Optional(t.Integer({ minimum: 1, maximum: 100, default: 30 })),
};
export const NextCursor = Nullable(t.String());

/**
 * A record id (or key) in a path or a bulk body. No length bound of its own (docs/rules/errors.md#codes): an id
 * that names nothing, an overlong one included, is 404 in a path and a per-item `not-found` in a
 * bulk body, never a 400.
 */
export const Id = t.String({ minLength: 1, error: "must be a non-empty id" });
export const IdParam = (name: string) => t.Object({ [name]: Id });
