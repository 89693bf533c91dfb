/**
 * RFC 9457 problem details. Handlers throw an HttpProblem; the one error path in
 * shared/http/errorResponse.ts turns it into an `application/problem+json` response.
 */
import { MAX_LISTED_ERRORS, type FieldError } from '../errors/domainErrors';

export type { FieldError };

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    readonly detail?: string,
    readonly errors?: FieldError[],
    readonly headers: Record<string, string> = {},
    /** A stable machine-readable code (problem extension member `code`). */
    readonly code?: string,
  ) {
    super(detail ?? title);
    this.name = 'HttpProblem';
  }
}

export const badRequest = (detail: string, errors?: FieldError[]) => new HttpProblem(400, 'Bad Request', detail, errors);

/** 400 for input that failed validation, listing at most MAX_LISTED_ERRORS of its field errors. */
export function invalidInput(detail: string, errors: readonly FieldError[]): HttpProblem {
  if (errors.length <= MAX_LISTED_ERRORS) return badRequest(detail, [...errors]);
  return badRequest(`${detail} The first ${MAX_LISTED_ERRORS} of ${errors.length} errors are listed.`, errors.slice(0, MAX_LISTED_ERRORS));
}

export const unauthorized = (detail: string) =>
  new HttpProblem(401, 'Unauthorized', detail, undefined, { 'www-authenticate': 'Bearer error="invalid_token"' });

export const forbidden = (detail: string) => new HttpProblem(403, 'Forbidden', detail);

export const notFound = (detail = 'No such resource.') => new HttpProblem(404, 'Not Found', detail);

export const conflict = (detail: string) => new HttpProblem(409, 'Conflict', detail);

export const payloadTooLarge = (detail: string) => new HttpProblem(413, 'Payload Too Large', detail);

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail?: string;
  instance?: string;
  requestId: string;
  code?: string;
  errors?: FieldError[];
}

export function problemBody(problem: HttpProblem, requestId: string, instance?: string): ProblemBody {
  return {
    type: 'about:blank',
    title: problem.title,
    status: problem.status,
    ...(problem.detail ? { detail: problem.detail } : {}),
    ...(instance ? { instance } : {}),
    requestId,
    ...(problem.code ? { code: problem.code } : {}),
    ...(problem.errors?.length ? { errors: problem.errors } : {}),
  };
}
