import { randomUUID } from 'node:crypto';
import type { HttpHandler, HttpRequest, HttpResponseInit, InvocationContext } from '@azure/functions';
import * as v from 'valibot';
import { getSettings } from '../config/settings';
import { createLogger, invocationSink, type Logger } from '../log/logger';
import { compileTemplate, type CompiledTemplate } from './pathTemplate';
import {
  badRequest,
  conflict,
  HttpProblem,
  invalidInput,
  notFound,
  payloadTooLarge,
  PROBLEM_CONTENT_TYPE,
  problemBody,
  type FieldError,
} from './problem';
import type { Route } from './route';

export const REQUEST_ID_HEADER = 'x-request-id';

interface CompiledRoute {
  route: Route;
  template: CompiledTemplate;
}

/**
 * The one HTTP pipeline: request id, route match (404/405), guard (401/403), input validation
 * (413/415/400), handler, and the single place that turns thrown errors into problem+json.
 * Each endpoint group's function is one dispatcher over that group's routes.
 */
export function createDispatcher(routes: readonly Route[]): HttpHandler {
  const compiled: CompiledRoute[] = routes
    .map((route) => ({ route, template: compileTemplate(route.path) }))
    .sort((a, b) => b.template.specificity - a.template.specificity);

  return async (request: HttpRequest, context: InvocationContext): Promise<HttpResponseInit> => {
    const started = performance.now();
    const requestId = incomingRequestId(request) ?? randomUUID();
    const path = new URL(request.url).pathname;
    const log = requestLogger(context).with({ requestId, method: request.method, path });

    let response: HttpResponseInit;
    try {
      response = await handle(compiled, request, path, requestId, log);
    } catch (error) {
      response = errorResponse(error, requestId, path, log);
    }
    const headers = new Headers(response.headers as HeadersInit | undefined);
    headers.set(REQUEST_ID_HEADER, requestId);
    log.info('http_request', { status: response.status ?? 200, durationMs: Math.round(performance.now() - started) });
    return { ...response, headers: Object.fromEntries(headers) };
  };
}

async function handle(
  compiled: CompiledRoute[],
  request: HttpRequest,
  path: string,
  requestId: string,
  log: Logger,
): Promise<HttpResponseInit> {
  const candidates = compiled
    .map(({ route, template }) => ({ route, params: template.match(path) }))
    .filter((candidate): candidate is { route: Route; params: Record<string, string> } => candidate.params !== undefined);
  if (candidates.length === 0) throw notFound(`No route matches ${path}.`);

  // The most specific template that matches decides the resource; methods are checked against it.
  const resource = candidates[0]!.route.path;
  const sameResource = candidates.filter((candidate) => candidate.route.path === resource);
  const method = request.method.toUpperCase();
  const chosen = sameResource.find((candidate) => candidate.route.method === method);
  if (!chosen) {
    const allow = sameResource.map((candidate) => candidate.route.method).join(', ');
    throw new HttpProblem(405, 'Method Not Allowed', `${method} is not supported on ${path}.`, undefined, { allow });
  }

  const { route } = chosen;
  const caller = await route.guard.authorize(request);
  // Every invalid field of params, query and body is reported at once.
  const errors: FieldError[] = [];
  const params = route.params ? validate(route.params, chosen.params, 'params', errors) : chosen.params;
  const query = route.query ? validate(route.query, Object.fromEntries(request.query), 'query', errors) : undefined;
  let body: unknown;
  if (route.body) {
    const { value, bytes } = await readJsonBody(request, route);
    body = validate(route.body, value, 'body', errors, bytes > FULL_REPORT_MAX_BYTES);
  }
  if (errors.length) throw invalidInput('The request did not pass validation.', errors);
  return route.handle({ request, requestId, log, caller, params, query, body });
}

// A large invalid body could yield an issue per byte or two; beyond this size validation stops
// at the first issue so that a small request cannot make a huge error report.
const FULL_REPORT_MAX_BYTES = 64 * 1024;

function validate(
  schema: v.GenericSchema,
  input: unknown,
  where: 'params' | 'query' | 'body',
  errors: FieldError[],
  abortEarly = false,
): unknown {
  const result = v.safeParse(schema, input, { abortEarly });
  if (result.success) return result.output;
  for (const issue of result.issues) {
    const dotPath = v.getDotPath(issue);
    errors.push({ path: dotPath ? `${where}.${dotPath}` : where, message: issue.message });
  }
  return undefined;
}

async function readJsonBody(request: HttpRequest, route: Route): Promise<{ value: unknown; bytes: number }> {
  const limit = route.maxBodyBytes ?? getSettings().HTTP_MAX_BODY_BYTES;
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > limit) throw payloadTooLarge(`The body may be at most ${limit} bytes.`);

  const contentType = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (contentType !== 'application/json' && !contentType.endsWith('+json')) {
    throw new HttpProblem(415, 'Unsupported Media Type', 'The body must be sent as application/json.');
  }
  const bytes = new Uint8Array(await request.arrayBuffer());
  if (bytes.byteLength > limit) throw payloadTooLarge(`The body may be at most ${limit} bytes.`);
  if (bytes.byteLength === 0) throw badRequest('A JSON body is required.', [{ path: 'body', message: 'is empty' }]);
  try {
    return { value: JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes)), bytes: bytes.byteLength };
  } catch {
    throw badRequest('The body is not valid JSON.', [{ path: 'body', message: 'malformed JSON' }]);
  }
}

/** The one place thrown values become responses; unknown errors never reveal anything internal. */
export function errorResponse(error: unknown, requestId: string, instance: string, log: Logger): HttpResponseInit {
  let problem: HttpProblem;
  if (error instanceof HttpProblem) {
    problem = error;
  } else if (isPostgresError(error) && (error.code === '23505' || error.code === '23503')) {
    log.warn('http_conflict', { code: error.code, constraint: error.constraint_name });
    problem = conflict('The request conflicts with the current state of the resource.');
  } else if (isPostgresError(error) && error.code.startsWith('22')) {
    // Class 22 (data exception): a value that passed validation but the database cannot take,
    // such as a NUL character or an impossible date. The caller's input, so a 400, not a 500.
    log.warn('http_data_exception', { code: error.code });
    problem = badRequest('The request contains a value that cannot be stored or compared.');
  } else {
    log.error('http_unhandled_error', { error });
    problem = new HttpProblem(500, 'Internal Server Error', `Something went wrong; quote request id ${requestId}.`);
  }
  return problemResponse(problem, requestId, instance);
}

export function problemResponse(problem: HttpProblem, requestId: string, instance?: string): HttpResponseInit {
  return {
    status: problem.status,
    headers: { ...problem.headers, 'content-type': PROBLEM_CONTENT_TYPE },
    body: JSON.stringify(problemBody(problem, requestId, instance)),
  };
}

function isPostgresError(error: unknown): error is { code: string; constraint_name?: string } {
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'PostgresError';
}

function incomingRequestId(request: HttpRequest): string | undefined {
  const value = request.headers.get(REQUEST_ID_HEADER);
  return value && /^[A-Za-z0-9._-]{8,100}$/.test(value) ? value : undefined;
}

function requestLogger(context: InvocationContext): Logger {
  return createLogger({ sink: invocationSink(context), minLevel: getSettings().LOG_LEVEL });
}
