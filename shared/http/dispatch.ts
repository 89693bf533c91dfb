import { randomUUID } from 'node:crypto';
import type { HttpHandler, HttpRequest, HttpResponseInit, InvocationContext } from '@azure/functions';
import * as v from 'valibot';
import { configuredLogLevel, getSettings } from '../config/settings';
import { createInvocationLogger, lazyLogger, type LogFields, type Logger } from '../log/logger';
import { InvalidError } from '../errors/domainErrors';
import { isWellFormed } from '../validation/humanText';
import { nextEventLoopTurn } from '../validation/eventLoopTurn';
import { FORM_MEDIA_TYPES, parseFormBody } from './formBody';
import { telemetry, within, type CallerKind } from '../telemetry/telemetry';
import { compileTemplate, type CompiledTemplate } from './pathTemplate';
import { domainProblem, problemOf, problemResponse } from './errorResponse';
import { badRequest, HttpProblem, invalidInput, notFound, payloadTooLarge, type FieldError } from './problem';
import type { Route, RouteInputName } from './route';
import { recordFirstUse } from '../auth/signIns';

export const REQUEST_ID_HEADER = 'x-request-id';

/** The routes of one path template, matched once per request; precomputed when the group is built. */
interface Resource {
  template: CompiledTemplate;
  /** The resource's routes by method, the first route of a method winning. */
  byMethod: Map<string, Route>;
  /** The Allow header of a 405 on this resource, in the order the routes are declared. */
  allow: string;
}

/** What the pipeline learnt about a request, for its operation's span. */
interface RequestFacts {
  route?: string;
  caller?: CallerKind;
  problemCode?: string;
}

/**
 * The one HTTP pipeline: request id, route match (404/405), guard (401/403), input validation
 * (413/415/400), handler, and the single place that turns thrown errors into problem+json.
 * Each endpoint group's function is one dispatcher over that group's routes. With telemetry on,
 * each request is one server span named by its route template (the function's own route,
 * `fallbackRoute`, when none matched), and that span replaces the `http_request` log line.
 */
export function createDispatcher(routes: readonly Route[], fallbackRoute = '/{*rest}'): HttpHandler {
  const resources = resourcesOf(routes);

  return async (request: HttpRequest, context: InvocationContext): Promise<HttpResponseInit> => {
    const started = performance.now();
    const requestId = incomingRequestId(request) ?? randomUUID();
    const path = pathOf(request.url);
    // Made on the first line logged: a request that logs nothing never builds its logger.
    const log = lazyLogger(() => requestLogger(context, { requestId, method: request.method, path }));
    const span = telemetry()?.requestSpan({
      method: request.method.toUpperCase(),
      fallbackRoute,
      path,
      requestId,
      traceparent: request.headers.get('traceparent'),
      tracestate: request.headers.get('tracestate'),
    });
    const facts: RequestFacts = {};

    // Everything that can throw, settings included, runs inside this try: no request escapes the
    // problem+json answer.
    let response: HttpResponseInit;
    try {
      response = await within(span, () => handle(resources, request, path, requestId, log, facts));
    } catch (error) {
      const problem = problemOf(error, requestId, log);
      facts.problemCode = problem.code;
      response = problemResponse(problem, requestId, path);
    }
    const headers = headersWith(response.headers, REQUEST_ID_HEADER, requestId);
    const status = response.status ?? 200;
    if (span) span.end({ status, ...facts });
    else log.info('http_request', { status, durationMs: Math.round(performance.now() - started) });
    return { ...response, headers };
  };
}

/** The caller kinds an operation is recorded with; a guard's caller names its own kind. */
function callerKindOf(caller: unknown): CallerKind {
  const kind = (caller as { kind?: unknown } | null)?.kind;
  if (kind === 'edge') return 'box';
  return kind === 'user' || kind === 'service' ? kind : 'anonymous';
}

async function handle(
  resources: readonly Resource[],
  request: HttpRequest,
  path: string,
  requestId: string,
  log: Logger,
  facts: RequestFacts,
): Promise<HttpResponseInit> {
  if (hasDotSegment(path) || endsInEmptySegment(path)) throw notFound(`No route matches ${path}.`);
  // The most specific template that matches decides the resource; methods are checked against it.
  // Routes of one resource share a template, so it is matched once, not once per route.
  let resource: Resource | undefined;
  let matched: Record<string, string> | undefined;
  for (const candidate of resources) {
    matched = candidate.template.match(path);
    if (matched) {
      resource = candidate;
      break;
    }
  }
  if (!resource || !matched) throw notFound(`No route matches ${path}.`);
  const method = request.method.toUpperCase();
  // HEAD is GET without the body (uptime monitors probe HEAD /healthz).
  const route = resource.byMethod.get(method === 'HEAD' ? 'GET' : method);
  if (!route) {
    throw new HttpProblem(405, 'Method Not Allowed', `${method} is not supported on ${path}.`, undefined, { allow: resource.allow });
  }
  facts.route = route.path;
  // A body on a route that takes none is refused before anything reads it or the guard spends work.
  if (!route.body && sendsBody(request)) {
    throw badRequest('This route takes no request body.', [{ path: 'body', message: 'must be empty' }]);
  }
  const caller = await route.guard.authorize(request, matched);
  facts.caller = callerKindOf(caller);
  // The caller's turn comes before the body is read: a request queued behind others of the same
  // caller holds only its bytes, not their parse and validation.
  if (route.body && route.admit) checkBodyHeaders(request, route);
  const release = route.admit ? await route.admit(caller) : undefined;
  try {
    return await validateAndHandle(route, request, method, requestId, log, caller, matched);
  } finally {
    release?.();
  }
}

async function validateAndHandle(
  route: Route,
  request: HttpRequest,
  method: string,
  requestId: string,
  log: Logger,
  caller: unknown,
  matched: Record<string, string>,
): Promise<HttpResponseInit> {
  // Every invalid field of params, query and body is reported at once.
  const errors: FieldError[] = [];
  const params = route.params ? validate(route.params, matched, 'params', errors) : matched;
  const query = route.query ? validate(route.query, Object.fromEntries(request.query), 'query', errors) : undefined;
  let body: unknown;
  if (route.body) {
    const { value, bytes } = await readBody(request, route);
    body = validate(route.body, value, 'body', errors, bytes > FULL_REPORT_MAX_BYTES);
    // A field the schema refused already is not named twice.
    const named = new Set(errors.map((error) => error.path));
    const unstorable = await unstorableValues(value, bytes > FULL_REPORT_MAX_BYTES ? 1 : MAX_ILL_FORMED_REPORTED);
    errors.push(...unstorable.filter((error) => !named.has(error.path)));
  }
  if (errors.length) throw invalidInput('The request did not pass validation.', errors);
  let response: HttpResponseInit;
  try {
    response = await route.handle({ request, requestId, log, caller, params, query, body });
  } catch (error) {
    // The area names fields relative to the value it was given; the route knows which input that was.
    if (error instanceof InvalidError) throw domainProblem(error, fieldErrorsIn(route));
    throw error;
  }
  // Only an answered request records the sign-in: one the route refused (a 404 for someone else's
  // entry, a 409) changes nothing, not even the caller's profile.
  if ((response.status ?? 200) < 400) await recordAnsweredSignIn(caller, log);
  return method === 'HEAD' ? withoutBody(response) : response;
}

/**
 * The route has answered and may have written already, so a failed sign-in write does not turn its
 * answer into an error: it is logged, and the token's next answered request records it.
 */
async function recordAnsweredSignIn(caller: unknown, log: Logger): Promise<void> {
  const recording = recordFirstUse(caller);
  if (recording) await recording.catch((error: unknown) => log.warn('sign_in_not_recorded', { error }));
}

/**
 * The group's resources, most specific template first. Routes sharing a path are one resource, in
 * the order of their first route (so among equally specific templates the first declared wins).
 */
function resourcesOf(routes: readonly Route[]): Resource[] {
  const byPath = new Map<string, Resource>();
  for (const route of routes) {
    let resource = byPath.get(route.path);
    if (!resource) {
      resource = { template: compileTemplate(route.path), byMethod: new Map(), allow: '' };
      byPath.set(route.path, resource);
    }
    if (!resource.byMethod.has(route.method)) resource.byMethod.set(route.method, route);
    resource.allow = resource.allow ? `${resource.allow}, ${route.method}` : route.method;
  }
  return [...byPath.values()].sort((a, b) => b.template.specificity - a.template.specificity);
}

/**
 * The answer's headers with one more, names in lower case as a `Headers` round trip would give
 * them. A plain object (what routes return) is copied without building a `Headers`; the other
 * forms of HeadersInit go through one.
 */
function headersWith(init: HttpResponseInit['headers'], name: string, value: string): Record<string, string> {
  if (init === undefined || init === null) return { [name]: value };
  if (init instanceof Headers || Array.isArray(init) || Object.getPrototypeOf(init) !== Object.prototype) {
    const headers = new Headers(init);
    headers.set(name, value);
    return Object.fromEntries(headers);
  }
  const out: Record<string, string> = {};
  for (const key of Object.keys(init)) {
    const lower = key.toLowerCase();
    const item = String((init as Record<string, unknown>)[key]).trim();
    out[lower] = lower in out ? `${out[lower]}, ${item}` : item;
  }
  out[name] = value;
  return out;
}

function fieldErrorsIn(route: Route): RouteInputName {
  return route.fieldErrorsIn ?? (route.body ? 'body' : route.query ? 'query' : 'params');
}

/** The GET answer's status and headers, content type included, without its body. */
function withoutBody(response: HttpResponseInit): HttpResponseInit {
  const headers = new Headers(response.headers);
  if (response.jsonBody !== undefined && !headers.has('content-type')) headers.set('content-type', 'application/json');
  return { status: response.status, headers: Object.fromEntries(headers), cookies: response.cookies };
}

/**
 * The Allow header of the resource a path names in an endpoint group, or undefined when no route
 * matches; for hosts that must answer a method themselves.
 */
export function allowedMethods(routes: readonly Route[], path: string): string | undefined {
  const matching = routes
    .map((route) => ({ route, template: compileTemplate(route.path) }))
    .filter(({ template }) => template.match(path) !== undefined)
    .sort((a, b) => b.template.specificity - a.template.specificity);
  const resource = matching[0]?.route.path;
  if (resource === undefined) return undefined;
  return matching
    .filter(({ route }) => route.path === resource)
    .map(({ route }) => route.method)
    .join(', ');
}

function sendsBody(request: HttpRequest): boolean {
  const length = request.headers.get('content-length');
  if (length !== null && length.trim() !== '0') return true;
  return request.headers.has('transfer-encoding');
}

/**
 * Both hosts resolve dot segments, encoded ones included, before the function sees the URL:
 * `DELETE /api/notifications/%2e` arrives as `/api/notifications/`. The trailing slash is all
 * that is left of the id, so such a path names no resource rather than its parent collection.
 */
function endsInEmptySegment(path: string): boolean {
  return path.length > 1 && path.endsWith('/');
}

/** `.` or `..` as a segment, however it is percent-encoded: never part of a resource's path. */
function hasDotSegment(path: string): boolean {
  return DOT_SEGMENT.test(path);
}
const DOT_SEGMENT = /(?:^|\/)(?:\.|%2e){1,2}(?:\/|$)/i;

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
    errors.push({ path: dotPath ? `${where}.${dotPath}` : where, message: boundedMessage(issue.message) });
  }
  return undefined;
}

const MAX_ILL_FORMED_REPORTED = 20;

/**
 * Strings, keys and numbers of a JSON body that no column can hold as sent. A lone surrogate (a
 * `\ud800` escape without its pair) would be stored as U+FFFD, so two different ids (`u\ud800`,
 * `u\udbff`) would become one, as a token's `sub` would (jwt.ts refuses those); a NUL is refused by
 * PostgreSQL only after the handler started, without naming the field. JSON.parse reads `1e999` as
 * Infinity, which passes `v.number()` and is stored in JSON as null. Walked without recursion: a
 * body may nest thousands of levels deep.
 */
async function unstorableValues(value: unknown, limit: number): Promise<FieldError[]> {
  const found: FieldError[] = [];
  // A node's path is spelt out only when it holds a problem: a 10,000-entry report has ~100,000
  // values, and building each one's path string cost more than checking it.
  const pending: WalkNode[] = [{ value, parent: undefined, key: undefined }];
  const check = (text: string, node: WalkNode) => {
    if (!isWellFormed(text)) found.push({ path: walkPath(node), message: 'must be well-formed Unicode (no lone surrogates)' });
    else if (text.includes('\u0000')) found.push({ path: walkPath(node), message: 'must not contain NUL characters' });
  };
  let walked = 0;
  for (let next = pending.pop(); next && found.length < limit; next = pending.pop()) {
    // A large body is walked in slices, so that other requests run between them.
    walked += 1;
    if (walked % VALUES_PER_SLICE === 0) await nextEventLoopTurn();
    const current = next.value;
    if (typeof current === 'string') {
      check(current, next);
    } else if (typeof current === 'number') {
      if (!Number.isFinite(current)) found.push({ path: walkPath(next), message: 'must be a finite number' });
    } else if (Array.isArray(current)) {
      for (let index = 0; index < current.length; index += 1) pending.push({ value: current[index], parent: next, key: index });
    } else if (current !== null && typeof current === 'object') {
      for (const key of Object.keys(current)) {
        check(key, next);
        pending.push({ value: (current as Record<string, unknown>)[key], parent: next, key });
      }
    }
  }
  return found.slice(0, limit);
}

/** Values of a body checked between two turns of the event loop. */
const VALUES_PER_SLICE = 20_000;

/** A value of the body being walked, with where it sits (the body itself has no parent). */
interface WalkNode {
  value: unknown;
  parent: WalkNode | undefined;
  key: string | number | undefined;
}

function walkPath(node: WalkNode): string {
  const keys: Array<string | number> = [];
  for (let at: WalkNode | undefined = node; at?.key !== undefined; at = at.parent) keys.push(at.key);
  return ['body', ...keys.reverse()].join('.');
}

// valibot's default messages quote the received value ("... but received \"<the input>\""): a
// huge string would come back in full, so a message is cut to this many characters.
const MAX_ISSUE_MESSAGE_CHARS = 200;

function boundedMessage(message: string): string {
  if (message.length <= MAX_ISSUE_MESSAGE_CHARS) return message;
  // Never end on half a surrogate pair.
  return message.slice(0, MAX_ISSUE_MESSAGE_CHARS).replace(/[\uD800-\uDBFF]$/, '') + '…';
}

/** What the headers say about the body, refused (413, 415) before any turn is taken or byte read. */
function checkBodyHeaders(request: HttpRequest, route: Route): { limit: number; rawContentType: string; form: boolean } {
  const limit = route.maxBodyBytes ?? getSettings().HTTP_MAX_BODY_BYTES;
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > limit) throw payloadTooLarge(`The body may be at most ${limit} bytes.`);

  const rawContentType = request.headers.get('content-type') ?? '';
  const contentType = rawContentType.split(';', 1)[0]?.trim().toLowerCase() ?? '';
  const form = route.bodyType === 'form';
  if (!form && contentType !== 'application/json' && !contentType.endsWith('+json')) {
    throw new HttpProblem(415, 'Unsupported Media Type', 'The body must be sent as application/json.');
  }
  if (form && !(FORM_MEDIA_TYPES as readonly string[]).includes(contentType)) {
    throw new HttpProblem(415, 'Unsupported Media Type', `The body must be sent as ${FORM_MEDIA_TYPES.join(' or ')}.`);
  }
  return { limit, rawContentType, form };
}

async function readBody(request: HttpRequest, route: Route): Promise<{ value: unknown; bytes: number }> {
  const { limit, rawContentType, form } = checkBodyHeaders(request, route);
  const bytes = new Uint8Array(await request.arrayBuffer());
  if (bytes.byteLength > limit) throw payloadTooLarge(`The body may be at most ${limit} bytes.`);
  if (bytes.byteLength === 0) throw badRequest('A request body is required.', [{ path: 'body', message: 'is empty' }]);
  if (form) return { value: await parseFormBody(bytes, rawContentType), bytes: bytes.byteLength };
  try {
    return { value: JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes)), bytes: bytes.byteLength };
  } catch {
    throw badRequest('The body is not valid JSON.', [{ path: 'body', message: 'malformed JSON' }]);
  }
}

function incomingRequestId(request: HttpRequest): string | undefined {
  const value = request.headers.get(REQUEST_ID_HEADER);
  return value && /^[A-Za-z0-9._-]{8,100}$/.test(value) ? value : undefined;
}

/**
 * The path exactly as the client sent it. `new URL().pathname` would resolve `.`/`..` and their
 * encoded forms (`%2e`), turning `/api/notifications/%2e` into `/api/notifications`; routes are
 * matched on the raw segments instead and dot segments are refused.
 */
export function pathOf(url: string): string {
  const afterAuthority = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(url);
  const rest = afterAuthority ? url.slice(afterAuthority[0].length) : url;
  const path = rest.split(/[?#]/, 1)[0] ?? '';
  return path.startsWith('/') ? path : '/' + path;
}

/** The invocation's logger; LOG_LEVEL even when the settings are broken (the error path then reports why). */
export function requestLogger(context: InvocationContext, fields: LogFields): Logger {
  return createInvocationLogger(context, { minLevel: configuredLogLevel(), fields });
}
