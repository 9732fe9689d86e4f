// What a failed call throws (client.ts `ok`): screens read it here without importing the client itself.
export type FieldError = { in?: string; field: string; message: string };
/** A problem+json answer (docs/rules/errors.md#problem-body) thrown by `ok`, so TanStack Query sees it as the error. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly errors: FieldError[],
  ) {
    super(code);
  }
}
