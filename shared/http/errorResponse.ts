import type { HttpResponseInit } from '@azure/functions';
import { SettingsError } from '../config/settings';
import { isDataException, isForeignKeyViolation, isTransient, isUniqueViolation, sqlState } from '../db/errors';
import {
  BusyError,
  ConflictError,
  GoneError,
  DomainError,
  ForbiddenError,
  InvalidError,
  NotFoundError,
  TooLargeError,
  UpstreamError,
} from '../errors/domainErrors';
import type { Logger } from '../log/logger';
import { badRequest, conflict, HttpProblem, PROBLEM_CONTENT_TYPE, problemBody, type FieldError } from './problem';
import type { RouteInputName } from './route';

/**
 * The one error path of the HTTP functions: every thrown value (an HttpProblem, a domain error, a
 * database error, anything else) becomes an `application/problem+json` answer here, for the
 * endpoint groups' dispatcher (shared/http/dispatch.ts) and the static web apps
 * (shared/http/staticFiles.ts) alike.
 */

/** The one place thrown values become responses; unknown errors never reveal anything internal. */
export function errorResponse(error: unknown, requestId: string, instance: string, log: Logger): HttpResponseInit {
  return problemResponse(problemOf(error, requestId, log), requestId, instance);
}

export function problemOf(error: unknown, requestId: string, log: Logger): HttpProblem {
  if (error instanceof HttpProblem) return error;
  if (error instanceof DomainError) return domainProblem(error);
  if (isUniqueViolation(error) || isForeignKeyViolation(error)) {
    log.warn('http_conflict', { code: sqlState(error), constraint: (error as { constraint_name?: string }).constraint_name });
    return conflict('The request conflicts with the current state of the resource.');
  }
  if (isDataException(error)) {
    // A value that passed validation but the database cannot take, such as a NUL character or an
    // impossible date: the caller's input, so a 400, not a 500.
    log.warn('http_data_exception', { code: sqlState(error) });
    return badRequest('The request contains a value that cannot be stored or compared.');
  }
  if (isTransient(error)) {
    log.warn('http_transient_failure', { code: sqlState(error) ?? (error as { code?: unknown }).code });
    return new HttpProblem(503, 'Service Unavailable', 'The service is briefly unable to answer; try again shortly.', undefined, {
      'retry-after': String(TRANSIENT_RETRY_AFTER_SECONDS),
    });
  }
  if (error instanceof SettingsError) {
    // The names of the bad settings only; their values may be secrets.
    log.error('http_settings_invalid', { settings: error.problems.map((problem) => problem.setting) });
  } else {
    log.error('http_unhandled_error', { error });
  }
  return new HttpProblem(500, 'Internal Server Error', `Something went wrong; quote request id ${requestId}.`);
}

/** Seconds a caller is asked to wait after a transient database failure (deadlock, lost connection). */
const TRANSIENT_RETRY_AFTER_SECONDS = 5;

/**
 * How each kind of domain error reads over HTTP. `input` names the request input an
 * InvalidError's field paths are relative to (`clubId` of the query is `query.clubId`).
 */
export function domainProblem(error: DomainError, input?: RouteInputName): HttpProblem {
  const { message, code } = error;
  const problem = (status: number, title: string, errors?: FieldError[], headers: Record<string, string> = {}) =>
    new HttpProblem(status, title, message, errors, headers, code);
  if (error instanceof NotFoundError) return problem(404, 'Not Found');
  if (error instanceof ForbiddenError) return problem(403, 'Forbidden');
  if (error instanceof InvalidError) {
    const fields = error.fieldErrors.map((field) => ({ ...field, path: input ? joinPath(input, field.path) : field.path }));
    return problem(400, 'Bad Request', fields.length ? fields : undefined);
  }
  if (error instanceof ConflictError) return problem(409, 'Conflict');
  if (error instanceof GoneError) return problem(410, 'Gone');
  if (error instanceof BusyError) return problem(503, 'Service Unavailable', undefined, { 'retry-after': String(error.retryAfterSeconds) });
  if (error instanceof TooLargeError) return problem(413, 'Payload Too Large');
  if (error instanceof UpstreamError) return problem(502, 'Bad Gateway');
  return problem(503, 'Service Unavailable');
}

function joinPath(input: RouteInputName, path: string): string {
  return path ? `${input}.${path}` : input;
}

export function problemResponse(problem: HttpProblem, requestId: string, instance?: string): HttpResponseInit {
  return {
    status: problem.status,
    headers: { ...problem.headers, 'content-type': PROBLEM_CONTENT_TYPE },
    body: JSON.stringify(problemBody(problem, requestId, instance)),
  };
}
