import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { HttpResponse, type HttpResponseInit, type InvocationContextInit, type Timer } from '@azure/functions';
import { Cron } from 'croner';
import type { FunctionDefinition } from '../../shared/host/definition';
import { allowedMethods, REQUEST_ID_HEADER } from '../../shared/http/dispatch';
import { HttpProblem, PROBLEM_CONTENT_TYPE, problemBody } from '../../shared/http/problem';
import { compileTemplate } from '../../shared/http/pathTemplate';
import type { Logger } from '../../shared/log/logger';
import type { EventHubTriggerSettings, RunningEventHubTriggers } from './eventHubTriggers';
import { LocalHttpRequest } from './localHttpRequest';
import { LocalInvocationContext } from './localInvocationContext';
import { requestUrl } from './requestTarget';
import { resolveSchedule } from './schedule';

/**
 * A small stand-in for the Functions host, serving the same definitions the Azure host gets:
 * HTTP functions by route template and method, timers on their NCRONTAB schedules, Event Hubs
 * functions fed from their hubs (when `eventHubTriggers` is given), and
 * `POST /admin/functions/{name}` with `{"input": ...}` to run a non-HTTP function as the Core
 * Tools do.
 */
export interface DevHostOptions {
  port: number;
  host?: string;
  log: Logger;
  /** Resolves `%NAME%` schedule expressions. */
  setting: (name: string) => string | undefined;
  /**
   * Start timers on their schedules: all (the default), none (tests invoke them through the admin
   * route), or only those named (a test or a measured run that needs one timer, like the progress drain).
   */
  runTimers?: boolean | readonly string[];
  /** Where the functions' own log lines go; by default warnings and errors to stderr, the rest to stdout. */
  functionLog?: (level: string, line: string) => void;
  /** Feed eventHub functions from their hubs with these host.json values; off when absent. */
  eventHubTriggers?: EventHubTriggerSettings;
  /** Largest request body accepted (the Azure host's 100 MB unless a test lowers it). */
  maxBodyBytes?: number;
}

export interface DevHost {
  url: string;
  /** The functions served: all but those whose `AzureWebJobs.<name>.Disabled` is true. */
  functions: string[];
  /** The eventHub functions being fed, e.g. `ingest <- club-data ($Default)`. */
  eventHubFeeds: string[];
  close(): Promise<void>;
}

type HttpDefinition = Extract<FunctionDefinition, { kind: 'http' }>;

const ADMIN_ROUTE = compileTemplate('admin/functions/{name}');
const MAX_ADMIN_BODY = 10 * 1024 * 1024;
// The Azure host refuses request bodies over 100 MB; so does this one.
const MAX_HTTP_BODY = 100 * 1024 * 1024;

export async function startDevHost(all: readonly FunctionDefinition[], options: DevHostOptions): Promise<DevHost> {
  // As the Functions host: `AzureWebJobs.<name>.Disabled` true leaves the function out entirely.
  const definitions = all.filter((definition) => !isDisabled(options.setting(`AzureWebJobs.${definition.name}.Disabled`)));
  const host = options.host ?? '127.0.0.1';
  const log = options.log.with({ component: 'devhost' });
  const httpFunctions = definitions
    .filter((definition): definition is HttpDefinition => definition.kind === 'http')
    .map((definition) => ({ definition, template: compileTemplate(definition.options.route ?? definition.name) }))
    .sort((a, b) => b.template.specificity - a.template.specificity);
  const byName = new Map(definitions.map((definition) => [definition.name.toLowerCase(), definition]));
  const functionLog =
    options.functionLog ??
    ((level: string, line: string) => (level === 'error' || level === 'warning' ? process.stderr.write(line + '\n') : stdoutLines(line)));

  // One handler for every invocation: it needs nothing of the invocation it logs for.
  const logHandler: NonNullable<InvocationContextInit['logHandler']> = (level, ...args) => {
    // Our loggers hand over one finished line; anything else is joined as the host would.
    const only = args.length === 1 ? args[0] : undefined;
    const line = typeof only === 'string' ? only : args.map((arg) => (typeof arg === 'string' ? arg : JSON.stringify(arg))).join(' ');
    functionLog(level, line);
  };
  const invocationContext = (functionName: string, extra: Pick<InvocationContextInit, 'triggerMetadata' | 'retryContext'> = {}) =>
    new LocalInvocationContext({ invocationId: randomUUID(), functionName, ...extra, logHandler });

  const maxBodyBytes = options.maxBodyBytes ?? MAX_HTTP_BODY;
  const server = http.createServer((req, res) => {
    void serve(req, res).catch((error: unknown) => {
      // The kind and place of the failure only: a message may quote what the client sent.
      log.error('devhost_request_failed', { errorName: error instanceof Error ? error.name : typeof error, at: stackFrames(error) });
      if (!res.headersSent) sendProblem(res, new HttpProblem(500, 'Internal Server Error', 'The local host failed.'));
      else res.destroy();
    });
  });

  // CONNECT carries an authority, not a path: no function is behind it. Without this listener
  // Node drops the connection without an answer.
  server.on('connect', (_req: http.IncomingMessage, socket: Duplex) => {
    socket.end(rawProblem(new HttpProblem(400, 'Bad Request', 'CONNECT is not served.')));
  });

  // A request Node cannot parse (a request line or headers over its limit, broken framing) never
  // reaches `serve`; without this listener Node answers with an empty body.
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (!socket.writable || error.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const problem =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? new HttpProblem(431, 'Request Header Fields Too Large', 'The request line or headers are larger than the host accepts.')
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? new HttpProblem(408, 'Request Timeout', 'The request did not arrive in time.')
          : new HttpProblem(400, 'Bad Request', 'The request is not valid HTTP.');
    // The answer to HEAD has no body; the method is known only from the bytes Node could not parse.
    const rawPacket = (error as { rawPacket?: Buffer }).rawPacket;
    socket.end(rawProblem(problem, rawPacket?.subarray(0, 5).toString('latin1') === 'HEAD '));
  });

  async function serve(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = requestUrl(req.url, req.headers.host, host);
    if (url instanceof HttpProblem) return sendProblem(res, url);
    // Like the Azure host, dot segments are resolved before routing; refusing them here keeps a
    // `..` from choosing another function than the one the client's path names.
    if (/(?:^|\/)(?:\.|%2e){1,2}(?:\/|$)/i.test((req.url ?? '').split('?', 1)[0] ?? '')) {
      return sendProblem(res, new HttpProblem(404, 'Not Found', 'The path contains a dot segment.'));
    }
    const adminParams = ADMIN_ROUTE.match(url.pathname);
    if (adminParams?.['name']) return invokeNonHttp(adminParams['name'], req, res);

    let target: { definition: HttpDefinition; params: Record<string, string> } | undefined;
    for (const { definition, template } of httpFunctions) {
      const params = template.match(url.pathname);
      if (params) {
        target = { definition, params };
        break;
      }
    }
    if (!target) return sendProblem(res, new HttpProblem(404, 'Not Found', `No function serves ${url.pathname}.`));
    const methods = target.definition.options.methods ?? ['GET', 'POST'];
    if (!methods.includes((req.method ?? 'GET').toUpperCase() as never)) {
      // PROPFIND, TRACE and the like never reach the function; Allow names what the resource takes.
      const allow = target.definition.routes.length ? allowedMethods(target.definition.routes, url.pathname) : methods.join(', ');
      if (allow === undefined) return sendProblem(res, new HttpProblem(404, 'Not Found', `No function serves ${url.pathname}.`));
      return sendProblem(res, new HttpProblem(405, 'Method Not Allowed', 'The method is not supported.', undefined, { allow }));
    }

    let body: Buffer = NO_BODY;
    // A request without Content-Length or Transfer-Encoding has no body (RFC 9112 6.3): nothing to wait for.
    if (req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] ?? '0') !== '0') {
      try {
        body = await readBody(req, maxBodyBytes);
      } catch {
        return refuseOversizedBody(req, res);
      }
    }
    // The Functions library's HttpRequest interface, made from the URL parsed above; its undici
    // Request is built only if the function reads the body (localHttpRequest.ts).
    const request = new LocalHttpRequest({
      method: req.method ?? 'GET',
      url,
      headers: req.headers,
      params: target.params,
      body,
    });
    const result = await target.definition.options.handler(request, invocationContext(target.definition.name));
    if (result instanceof HttpResponse || !writePlainResponse(res, result ?? {})) {
      await writeResponse(res, result instanceof HttpResponse ? result : new HttpResponse(result ?? {}));
    }
  }

  async function invokeNonHttp(name: string, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    if ((req.method ?? '').toUpperCase() !== 'POST') {
      return sendProblem(res, new HttpProblem(405, 'Method Not Allowed', 'Use POST to invoke a function.', undefined, { allow: 'POST' }));
    }
    const definition = byName.get(name.toLowerCase());
    if (!definition) return sendProblem(res, new HttpProblem(404, 'Not Found', `No function named ${name}.`));
    if (definition.kind === 'http') {
      return sendProblem(res, new HttpProblem(400, 'Bad Request', `${name} is an HTTP function; call its route instead.`));
    }
    let input: unknown;
    try {
      const raw = (await readBody(req, MAX_ADMIN_BODY)).toString('utf8');
      input = raw ? (JSON.parse(raw) as { input?: unknown }).input : undefined;
    } catch {
      return sendProblem(res, new HttpProblem(400, 'Bad Request', 'The body must be JSON like {"input": ...}.'));
    }
    try {
      await runNonHttp(definition, input, false);
    } catch {
      // The function logged its own failure; the caller learns only that it failed.
      return sendProblem(res, new HttpProblem(500, 'Function Failed', `${name} failed; see the host log.`));
    }
    res.writeHead(202).end();
  }

  async function runNonHttp(definition: FunctionDefinition, input: unknown, isPastDue: boolean): Promise<void> {
    const context = invocationContext(definition.name);
    if (definition.kind === 'timer') {
      const now = new Date().toISOString();
      const timer: Timer = { isPastDue, schedule: { adjustForDST: true }, scheduleStatus: { last: now, next: now, lastUpdated: now } };
      await definition.options.handler(timer, context);
    } else if (definition.kind === 'eventHub') {
      await definition.options.handler(eventHubMessages(input), context);
    }
  }

  const jobs: Cron[] = [];
  const runsTimer = (name: string) => {
    const runTimers = options.runTimers ?? true;
    return typeof runTimers === 'boolean' ? runTimers : runTimers.includes(name);
  };
  for (const definition of definitions) {
    if (definition.kind !== 'timer' || !runsTimer(definition.name)) continue;
    const schedule = resolveSchedule(definition.options.schedule, (name) => options.setting(name));
    jobs.push(
      new Cron(schedule, { protect: true, timezone: 'UTC' }, async () => {
        await runNonHttp(definition, undefined, false).catch(() => undefined);
      }),
    );
    if (definition.options.runOnStartup) void runNonHttp(definition, undefined, false).catch(() => undefined);
  }

  let eventHubFeeds: RunningEventHubTriggers | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port, host, () => resolve());
    });
    if (options.eventHubTriggers) {
      // The Event Hubs SDK loads only for a host that feeds event triggers: most hosts serve HTTP alone.
      const { startEventHubTriggers } = await import('./eventHubTriggers');
      eventHubFeeds = startEventHubTriggers(definitions, { ...options.eventHubTriggers, log, setting: options.setting, invocationContext });
    }
  } catch (error) {
    jobs.forEach((job) => job.stop());
    throw error;
  }
  const address = server.address() as AddressInfo;
  return {
    url: `http://${host}:${address.port}`,
    functions: definitions.map((definition) => definition.name),
    eventHubFeeds: eventHubFeeds?.descriptions ?? [],
    close: async () => {
      jobs.forEach((job) => job.stop());
      await eventHubFeeds?.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** How the Functions host reads the Disabled setting: true or 1, any case. */
function isDisabled(value: string | undefined): boolean {
  return /^(true|1)$/i.test(value?.trim() ?? '');
}

/**
 * The functions' stdout lines (an access line per request), written in batches instead of one
 * write each: stdout to a terminal, file or pipe is written synchronously, a system call per
 * write. A batch goes out STDOUT_BATCH_MS after its first line, or at once when it reaches
 * STDOUT_BATCH_BYTES, so a line waits a few milliseconds at most and the batch stays small. Under
 * load the lines of many requests share one write; a batch per turn of the event loop had still
 * held about one request's line. Order is kept; what is pending when the process exits is written
 * then. Warnings and errors (stderr) are written at once.
 */
const STDOUT_BATCH_MS = 10;
const STDOUT_BATCH_BYTES = 64 * 1024;
let pendingStdout = '';
let stdoutTimer: NodeJS.Timeout | undefined;
let stdoutFlushedOnExit = false;
function stdoutLines(line: string): void {
  pendingStdout += line + '\n';
  if (pendingStdout.length >= STDOUT_BATCH_BYTES) return flushStdout();
  if (stdoutTimer) return;
  // Unreferenced: a pending batch never keeps the process alive; the exit hook writes it.
  stdoutTimer = setTimeout(flushStdout, STDOUT_BATCH_MS).unref();
  if (!stdoutFlushedOnExit) {
    stdoutFlushedOnExit = true;
    process.once('exit', flushStdout);
  }
}
function flushStdout(): void {
  if (stdoutTimer) clearTimeout(stdoutTimer);
  stdoutTimer = undefined;
  if (!pendingStdout) return;
  const out = pendingStdout;
  pendingStdout = '';
  process.stdout.write(out);
}

/** Core Tools hand the `input` string to the trigger; a JSON array becomes a batch of events. */
function eventHubMessages(input: unknown): unknown[] {
  let value = input;
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input);
    } catch {
      value = input;
    }
  }
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

function readBody(req: http.IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    if (Number(req.headers['content-length'] ?? 0) > limit) {
      reject(new Error('body too large'));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        // Stop collecting but do not destroy: the 413 must reach the client first.
        req.off('data', onData);
        reject(new Error('body too large'));
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

const NO_BODY = Buffer.alloc(0);
// The statuses whose answer has no body (the Functions library drops it for them too).
const NULL_BODY_STATUSES = new Set([204, 205, 304]);

/**
 * Writes the common answer, a plain object with a plain-object header record and a JSON or text
 * body, as the Functions library's HttpResponse would render it (lower-case header names, JSON
 * as application/json and text as text/plain;charset=UTF-8 unless the route set a type), without
 * building that HttpResponse and reading its body back. Returns false, writing nothing, for any
 * other answer (cookies, streams, a Headers object), which then takes the HttpResponse path.
 */
function writePlainResponse(res: http.ServerResponse, init: HttpResponseInit): boolean {
  const source = init.headers;
  if (init.cookies?.length || (source !== undefined && (source === null || Object.getPrototypeOf(source) !== Object.prototype)))
    return false;
  const status = init.status ?? 200;
  let body: string | Uint8Array | undefined;
  let type: string | undefined;
  if (NULL_BODY_STATUSES.has(status)) body = undefined;
  else if (init.jsonBody !== undefined && init.jsonBody !== null) {
    body = JSON.stringify(init.jsonBody);
    type = 'application/json';
  } else if (typeof init.body === 'string') {
    body = init.body;
    type = 'text/plain;charset=UTF-8';
  } else if (init.body instanceof Uint8Array) body = init.body;
  else if (init.body !== undefined && init.body !== null) return false;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries((source ?? {}) as Record<string, unknown>)) {
    const lower = name.toLowerCase();
    const item = String(value).trim();
    headers[lower] = lower in headers ? `${headers[lower]}, ${item}` : item;
  }
  if (type !== undefined && headers['content-type'] === undefined) headers['content-type'] = type;
  if (body !== undefined) headers['content-length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);
  res.writeHead(status, headers);
  res.end(body);
  return true;
}

async function writeResponse(res: http.ServerResponse, response: HttpResponse): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  const body = response.body ? Buffer.from(await response.arrayBuffer()) : undefined;
  res.writeHead(response.status ?? 200, headers);
  res.end(body);
}

// After a 413 the rest of the body is read and dropped, within these bounds, before the
// connection closes: closing while the client still writes resets the connection, and clients
// then report the reset (EPIPE, ECONNRESET) instead of the answer already sent to them.
const DRAIN_AFTER_REFUSAL_MAX_BYTES = 256 * 1024 * 1024;
const DRAIN_AFTER_REFUSAL_MAX_MS = 10_000;

/** 413 at once; the response (and with it the connection) ends once the body is drained or a bound is reached. */
function refuseOversizedBody(req: http.IncomingMessage, res: http.ServerResponse): void {
  res.shouldKeepAlive = false;
  writeProblem(
    res,
    new HttpProblem(413, 'Payload Too Large', 'The body is larger than the host accepts.', undefined, { connection: 'close' }),
  );
  let drained = 0;
  const finish = () => {
    clearTimeout(timer);
    req.off('data', count);
    if (!res.writableEnded) res.end();
  };
  const count = (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > DRAIN_AFTER_REFUSAL_MAX_BYTES) finish();
  };
  const timer = setTimeout(finish, DRAIN_AFTER_REFUSAL_MAX_MS).unref();
  if (req.complete || Number(req.headers['content-length'] ?? 0) > DRAIN_AFTER_REFUSAL_MAX_BYTES) return finish();
  req.on('data', count);
  req.once('end', finish);
  req.once('error', finish);
  req.resume();
}

function stackFrames(error: unknown): string[] | undefined {
  return error instanceof Error ? error.stack?.split('\n').filter((line) => line.trimStart().startsWith('at ')) : undefined;
}

/** A whole problem+json answer as bytes for a socket no ServerResponse belongs to; the connection closes after it. */
function rawProblem(problem: HttpProblem, withoutBody = false): string {
  const body = JSON.stringify(problemBody(problem, randomUUID()));
  return `HTTP/1.1 ${problem.status} ${problem.title}\r\ncontent-type: ${PROBLEM_CONTENT_TYPE}\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${withoutBody ? '' : body}`;
}

function sendProblem(res: http.ServerResponse, problem: HttpProblem): void {
  writeProblem(res, problem);
  res.end();
}

/** The whole problem+json answer, without ending the response. */
function writeProblem(res: http.ServerResponse, problem: HttpProblem): void {
  const requestId = randomUUID();
  const body = JSON.stringify(problemBody(problem, requestId));
  res.writeHead(problem.status, {
    'content-type': PROBLEM_CONTENT_TYPE,
    'content-length': String(Buffer.byteLength(body)),
    [REQUEST_ID_HEADER]: requestId,
    ...problem.headers,
  });
  res.write(body);
}
