/** A field a 400 names, as the backend lists it (`body.evenings.0.end`), and what is wrong with it. */
export interface FieldError {
  path: string;
  message: string;
}

/**
 * A failed API call with what its problem+json said: `detail` is the text for the user (it names
 * the field on a 400), `requestId` what support asks for. Status 0 is a network failure.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    readonly detail: string | undefined,
    readonly code: string | undefined,
    readonly requestId: string | undefined,
    readonly fieldErrors: readonly FieldError[] = [],
  ) {
    super(detail ?? title);
    this.name = 'ApiError';
  }
}
