/**
 * Errors that area code throws. They know nothing of HTTP: the HTTP dispatcher maps them to
 * problem+json (shared/http/dispatch.ts), the job wrappers (shared/host/definition.ts) decide
 * whether a timer or an event batch is retried. See docs/decisions/004-domain-errors.md.
 */

/**
 * One failing input field, named relative to the value the area was given (`clubs.3.name`,
 * `clubId`); the HTTP dispatcher prefixes the request input it came from (`body.clubs.3.name`).
 */
export interface FieldError {
  path: string;
  message: string;
}

interface DomainErrorOptions {
  /** A stable machine-readable code clients may switch on (`rate_limited`, `not_configured`). */
  code?: string;
  cause?: unknown;
}

/** Base of every domain error. `message` is safe to show to the caller. */
export abstract class DomainError extends Error {
  abstract readonly kind: 'not_found' | 'forbidden' | 'invalid' | 'conflict' | 'gone' | 'busy' | 'too_large' | 'upstream' | 'unavailable';
  readonly code: string | undefined;

  constructor(message: string, options: DomainErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = options.code;
  }
}

/** The thing asked for does not exist (or the caller may not know it exists). */
export class NotFoundError extends DomainError {
  readonly kind = 'not_found';
}

/** The caller is known but a rule of the area keeps them from this (a leader deciding their own claim). */
export class ForbiddenError extends DomainError {
  readonly kind = 'forbidden';
}

/** Input that breaks a rule, with every failing field. */
export class InvalidError extends DomainError {
  readonly kind = 'invalid';
  constructor(
    message: string,
    readonly fieldErrors: readonly FieldError[] = [],
    options: DomainErrorOptions = {},
  ) {
    super(message, options);
  }
}

/** The request contradicts the current state (a duplicate, a wrong transition). */
export class ConflictError extends DomainError {
  readonly kind = 'conflict';
}

/** What the request names existed but is over for good (a link already used, expired or replaced). */
export class GoneError extends DomainError {
  readonly kind = 'gone';
}

/** Too much at once: the caller should send it again after `retryAfterSeconds`. */
export class BusyError extends DomainError {
  readonly kind = 'busy';
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
    options: DomainErrorOptions = {},
  ) {
    super(message, options);
  }
}

/** Input larger than the area accepts (a list over its cap). */
export class TooLargeError extends DomainError {
  readonly kind = 'too_large';
}

/** A service this one depends on refused or failed (the cost provider); not the caller's fault. */
export class UpstreamError extends DomainError {
  readonly kind = 'upstream';
}

/** A feature that cannot work in this deployment as configured (missing credentials). */
export class UnavailableError extends DomainError {
  readonly kind = 'unavailable';
}

/** More field errors than this are counted, not listed, so a bad request cannot produce a huge answer. */
export const MAX_LISTED_ERRORS = 100;

/** An InvalidError listing at most MAX_LISTED_ERRORS of `errors`, the message saying how many there were. */
export function invalid(message: string, errors: readonly FieldError[]): InvalidError {
  if (errors.length <= MAX_LISTED_ERRORS) return new InvalidError(message, errors);
  return new InvalidError(
    `${message} The first ${MAX_LISTED_ERRORS} of ${errors.length} errors are listed.`,
    errors.slice(0, MAX_LISTED_ERRORS),
  );
}
