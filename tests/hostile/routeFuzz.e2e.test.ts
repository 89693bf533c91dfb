import fc from 'fast-check';
import { SeverityNumber } from '@opentelemetry/api-logs';
import type { LogRecordProcessor } from '@opentelemetry/sdk-logs';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { startFakeAppInsights, type FakeAppInsights } from '../../development/appInsightsFake/server';
import { readFakeTls } from '../../development/costsFake/certificate';
import { getSettings } from '../../shared/config/settings';
import { secretValues, startTelemetry, stopTelemetry } from '../../shared/telemetry/startup';
import { telemetry } from '../../shared/telemetry/telemetry';
import { functionDefinitions } from '../../functions/definitions';
import { openApiAreas } from '../../functions/openapi';
import { getSql } from '../../shared/db/client';
import { buildOpenApi } from '../../shared/http/openapi';
import { isWellFormed } from '../../shared/validation/humanText';
import { createLogger } from '../../shared/log/logger';
import {
  changedTables,
  usePrivateDatabase,
  watchFingerprint,
  type DbFingerprint,
  type FingerprintWatch,
  type PrivateDatabase,
} from '../support/dbFingerprint';
import { headerSafe, percentEncode, RAW_ESCAPES, sendRaw, type RawAnswer } from '../support/hostileClient';
import { inlineSchemaRefs, type JsonSchema, type OpenApiDocument, type OpenApiOperation } from '../support/openApiDocument';
import { bodyValue, hostileString, HOSTILE_STRINGS, PROTOTYPE_KEYS, validValue } from '../support/schemaArbitrary';
import { useTestHost } from '../support/testHost';
import { tokenFor } from '../support/tokens';
import { AUTHORIZATION_MATRIX } from './authorizationMatrix';
import { buildWorld, PEOPLE, substitute, targetOf, type World } from './world';

/**
 * Property-based fuzzing of every operation in the OpenAPI document: random, boundary and
 * near-valid path parameters, query strings, headers and bodies, derived from the operation's own
 * schemas, sent with the credential the route wants (so the input reaches validation) and without.
 * For every answer: never a 5xx; a 4xx is problem+json with a sensible body; a refused request
 * changes no row (a fingerprint of every table before and after); nothing is logged at error level.
 * Telemetry is on (every span and log record kept): at the end no credential the fuzz sent is in a
 * span, a log record or the envelopes that reached the (local) Application Insights endpoint.
 * FUZZ_RUNS raises the runs per operation (docs/testing-hostile.md); a failure prints its seed.
 */
const RUNS = Number(process.env['FUZZ_RUNS'] ?? 30);
const SEED = process.env['FUZZ_SEED'] ? Number(process.env['FUZZ_SEED']) : undefined;

const document = inlineSchemaRefs(
  buildOpenApi(openApiAreas(functionDefinitions), { title: 'Shooting club backend', version: '1.0.0' }) as unknown as OpenApiDocument,
);

const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
  Object.entries(methods ?? {}).map(([method, operation]) => ({ path, method: method.toUpperCase(), operation: operation! })),
);

interface FuzzRequest {
  credential: 'right' | 'plainUser' | 'none' | 'hostile';
  hostileAuthorization: string;
  segments: Record<string, string>;
  query: string;
  contentType: string | undefined;
  extraHeaders: Record<string, string>;
  body: string | Buffer | undefined;
  /** GET routes are also asked with HEAD (uptime monitors do): the same answer without a body. */
  head: boolean;
}

/** Known ids by path parameter name, so some runs name resources that exist. */
const knownIds = (world: World): Record<string, string[]> => ({
  clubId: [world.clubA, world.clubB],
  id: [world.notificationId, world.challengeId, world.participationId],
  linkId: [world.pendingLinkId],
});

const RAW_BODIES: readonly (string | Buffer)[] = [
  '{',
  '{"a":',
  'null',
  '[]',
  '"text"',
  '0',
  '\uFEFF{}',
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '{"a":1,"a":2}',
  Buffer.from([0xff, 0xfe, 0x7b, 0x7d]),
  Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d]),
  '{"a":"\\ud800"}',
  '{"a":"\\u0000"}',
  '1'.repeat(400) + 'e9999',
  '['.repeat(20_000) + ']'.repeat(20_000),
];

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'application/merge-patch+json',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/json; charset=utf-16',
  'application/json\u00e9',
];

function segmentArbitrary(name: string, schema: JsonSchema, known: Record<string, string[]>): fc.Arbitrary<string> {
  const ids = known[name] ?? [];
  return fc.oneof(
    {
      weight: 3,
      arbitrary: ids.length ? fc.constantFrom(...ids).map(percentEncode) : validValue(schema).map((value) => percentEncode(String(value))),
    },
    { weight: 2, arbitrary: validValue(schema).map((value) => percentEncode(String(value))) },
    { weight: 3, arbitrary: hostileString.filter((text) => text.length > 0 && text.length < 3_000).map(percentEncode) },
    { weight: 2, arbitrary: fc.constantFrom(...RAW_ESCAPES).map((escape) => `a${escape}b`) },
  );
}

function queryArbitrary(operation: OpenApiOperation): fc.Arbitrary<string> {
  const parameters = (operation.parameters ?? []).filter((parameter) => parameter.in === 'query');
  const value = (schema: JsonSchema) =>
    fc.oneof(
      { weight: 3, arbitrary: validValue(schema).map((v) => percentEncode(String(v))) },
      { weight: 3, arbitrary: hostileString.filter((text) => text.length < 3_000).map(percentEncode) },
      { weight: 1, arbitrary: fc.constantFrom(...RAW_ESCAPES) },
    );
  const known = parameters.map((parameter) =>
    fc.option(
      value(parameter.schema).map((v) => `${parameter.name}=${v}`),
      { nil: undefined, freq: 3 },
    ),
  );
  const extra = fc.oneof(
    { weight: 4, arbitrary: fc.constant<string[]>([]) },
    { weight: 1, arbitrary: fc.constantFrom(...PROTOTYPE_KEYS).map((key) => [`${key}=1`, `${key}[polluted]=1`]) },
    { weight: 1, arbitrary: fc.tuple(hostileString, hostileString).map(([k, v]) => [`${percentEncode(k)}=${percentEncode(v)}`]) },
    {
      weight: 1,
      arbitrary: parameters.length
        ? fc
            .constantFrom(...parameters)
            .map((parameter) => [`${parameter.name}=1`, `${parameter.name}=${percentEncode(HOSTILE_STRINGS[4]!)}`])
        : fc.constant<string[]>(['&&', '=']),
    },
  );
  return fc.tuple(fc.tuple(...known), extra).map(([pairs, more]) => [...pairs.filter((pair) => pair !== undefined), ...more].join('&'));
}

function bodyArbitrary(operation: OpenApiOperation): fc.Arbitrary<string | Buffer | undefined> {
  const schema = operation.requestBody?.content['application/json']?.schema;
  if (!schema) {
    // A route without a body: mostly none, sometimes one (refused with 400 before the guard).
    return fc.oneof({ weight: 5, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constantFrom(...RAW_BODIES.slice(0, 4)) });
  }
  return fc.oneof(
    { weight: 8, arbitrary: bodyValue(schema).map((value) => JSON.stringify(value) ?? 'null') },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_BODIES) },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
}

function requestArbitrary(operation: OpenApiOperation, world: World, hostileAuthorizations: string[]): fc.Arbitrary<FuzzRequest> {
  const known = knownIds(world);
  const pathParameters = (operation.parameters ?? []).filter((parameter) => parameter.in === 'path');
  const segments = fc.record(
    Object.fromEntries(pathParameters.map((parameter) => [parameter.name, segmentArbitrary(parameter.name, parameter.schema, known)])),
  ) as fc.Arbitrary<Record<string, string>>;
  return fc.record({
    head: fc.constantFrom(false, false, false, true),
    credential: fc.constantFrom<FuzzRequest['credential']>('right', 'right', 'right', 'right', 'right', 'plainUser', 'none', 'hostile'),
    hostileAuthorization: fc.constantFrom(...hostileAuthorizations),
    segments,
    query: queryArbitrary(operation),
    contentType: fc.oneof(
      { weight: 12, arbitrary: fc.constant('application/json') },
      { weight: 2, arbitrary: fc.constantFrom(...CONTENT_TYPES) },
      { weight: 1, arbitrary: fc.constant(undefined) },
    ),
    extraHeaders: fc.record(
      {
        'x-request-id': hostileString.map((text) => headerSafe(text, 300)),
        accept: fc.constantFrom('application/xml', '*/*', 'text/html', headerSafe('\u00ff\u00fe', 10)),
        'x-forwarded-host': fc.constantFrom('evil.example', 'a b', '[', ''),
        'content-encoding': fc.constantFrom('gzip', 'br', 'identity'),
        'x-http-method-override': fc.constantFrom('DELETE', 'PUT'),
      },
      { requiredKeys: [] },
    ),
    body: bodyArbitrary(operation),
  });
}

function rightCredential(operation: OpenApiOperation, world: World): string | undefined {
  const scheme = Object.keys(operation.security?.[0] ?? {})[0];
  if (scheme === 'edgeToken') return world.auth.edgeA;
  if (scheme === 'serviceToken') return world.auth.service;
  return world.auth.superuser;
}

function describeRequest(method: string, target: string, request: FuzzRequest, headers: Record<string, string>): string {
  const body = request.body === undefined ? '(none)' : String(request.body).slice(0, 300);
  return `${method} ${target.slice(0, 500)}\nheaders: ${JSON.stringify({ ...headers, authorization: headers['authorization'] ? '<' + request.credential + '>' : undefined })}\nbody: ${body}`;
}

/** Whether a JSON body holds a string or key that is not well-formed Unicode. */
function carriesIllFormedText(body: string | Buffer | undefined): boolean {
  if (typeof body !== 'string') return false;
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return false;
  }
  const pending: unknown[] = [value];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (typeof next === 'string' && !isWellFormed(next)) return true;
    if (next && typeof next === 'object') {
      for (const [key, item] of Object.entries(next)) {
        if (!isWellFormed(key)) return true;
        pending.push(item);
      }
    }
  }
  return false;
}

/** The checks every answer must pass; a failure names the request. */
function checkAnswer(answer: RawAnswer, describe: () => string, head = false): void {
  const fail = (why: string) => {
    throw new Error(`${why}\n${describe()}\nanswer ${answer.status}: ${answer.body.slice(0, 500)}`);
  };
  if (answer.status >= 500 || answer.status < 100) fail(`answered ${answer.status}`);
  if (answer.status < 400) return;
  if (answer.headers['content-type'] !== 'application/problem+json')
    fail(`a ${answer.status} without problem+json (${answer.headers['content-type']})`);
  if (head) {
    if (answer.body !== '') fail('an answer to HEAD with a body');
    return;
  }
  if (answer.body.length > 200_000) fail(`a ${answer.status} with a body of ${answer.body.length} characters`);
  let problem: { type?: unknown; title?: unknown; status?: unknown; requestId?: unknown; detail?: unknown; errors?: unknown };
  try {
    problem = JSON.parse(answer.body) as typeof problem;
  } catch {
    return fail('a problem body that is not JSON');
  }
  if (typeof problem.type !== 'string' || typeof problem.title !== 'string' || typeof problem.requestId !== 'string')
    fail('a problem without type, title or requestId');
  if (problem.status !== answer.status) fail(`a problem whose status ${String(problem.status)} is not the answer's`);
  if (problem.detail !== undefined && (typeof problem.detail !== 'string' || problem.detail.length > 2_000))
    fail('a problem detail that is not a short string');
  if (problem.errors !== undefined) {
    const errors = problem.errors as { path?: unknown; message?: unknown }[];
    if (!Array.isArray(errors) || errors.length === 0 || errors.some((e) => typeof e.path !== 'string' || typeof e.message !== 'string')) {
      fail('problem errors that do not each name a path and a message');
    }
  }
  if (/\bat \S+\.(?:ts|js):\d+/.test(answer.body)) fail('a problem that shows a stack trace');
  if (answer.status === 405 && !answer.headers['allow']) fail('a 405 without Allow');
}

describe('fuzzing every route of the OpenAPI document', () => {
  let database: PrivateDatabase;
  let world: World;
  let hostileAuthorizations: string[];
  /** A user without platform role, a member of club A: reaches the 403 paths with the same input. */
  let plainUser: string;
  const errorLines: string[] = [];
  let baseline: DbFingerprint;
  let fingerprints: FingerprintWatch;
  const spans = new InMemorySpanExporter();
  const telemetryRecords: string[] = [];
  let ingestion: FakeAppInsights;
  // With telemetry on, log lines of an invocation are records only: error-level ones count here.
  const records: LogRecordProcessor = {
    onEmit(record) {
      const text = JSON.stringify({ body: record.body, attributes: record.attributes });
      telemetryRecords.push(text);
      if ((record.severityNumber ?? 0) >= SeverityNumber.ERROR) errorLines.push(text);
    },
    forceFlush: () => Promise.resolve(),
    shutdown: () => Promise.resolve(),
  };

  beforeAll(async () => {
    // The Functions library warns (on the console) each time it drops a GET body; the dispatcher refuses those requests anyway.
    const warn = console.warn.bind(console);
    jest.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => {
      if (!String(args[0]).startsWith('Discarding the body of the incoming')) warn(...args);
    });
    database = await usePrivateDatabase('fuzz');
    world = await buildWorld({ costs: true, push: true });
    ingestion = await startFakeAppInsights({ tls: readFakeTls(process.env['NODE_EXTRA_CA_CERTS'] ?? '') });
    await startTelemetry({
      connectionString: ingestion.connectionString,
      secrets: secretValues(getSettings()),
      serviceName: 'fuzz',
      spanProcessors: [new SimpleSpanProcessor(spans)],
      logRecordProcessors: [records],
      sampleEverything: true,
      liveMetrics: false,
      offlineStorage: false,
    });
  }, 120_000);
  const host = useTestHost(undefined, {
    functionLog: (level, line) => {
      if (level === 'error' || level === 'critical') errorLines.push(line);
    },
    log: createLogger({ minLevel: 'error', sink: (_level, line) => errorLines.push(line) }),
  });
  beforeAll(async () => {
    plainUser = `Bearer ${await tokenFor(PEOPLE.member)}`;
    hostileAuthorizations = [
      world.auth.forged,
      world.auth.revokedEdge,
      world.auth.edgeB.replace('Bearer ', 'Basic '),
      'Bearer',
      'Bearer ' + 'a'.repeat(5_000),
      'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4Iiwicm9sZXMiOlsicGxhdGZvcm1fYWRtaW4iXX0.',
      `Bearer ${await tokenFor('x\uD800', { roles: ['platform_admin'] })}`,
      `Bearer ${await tokenFor('x\u0000y', { roles: ['platform_admin'] })}`,
      `Bearer ${await tokenFor('expired', { roles: ['platform_admin'], expiresIn: Math.floor(Date.now() / 1000) - 60 })}`,
      `Bearer ${await tokenFor('roles', { roles: ['__proto__', 'constructor', 'platform_admin '] })}`,
      headerSafe('Bearer \u00ff\u00fe'),
    ];
    fingerprints = await watchFingerprint(getSql());
    baseline = await fingerprints.current();
  }, 120_000);

  afterAll(async () => {
    await stopTelemetry();
    await ingestion?.close();
    await world?.close();
    await database?.drop();
  });

  it('fuzzes exactly the routes the host serves in its OpenAPI document', async () => {
    const served = await host.request('GET', '/api/openapi.json');
    expect(inlineSchemaRefs((await served.json()) as OpenApiDocument)).toEqual(document);
    expect(operations.length).toBeGreaterThan(30);
  });

  /** Every string (and key) of a value, with its dot path, each replaced by `replace`. */
  function* eachString(value: unknown, path = ''): Generator<{ path: string; with: (text: string) => unknown }> {
    if (typeof value === 'string') {
      yield { path, with: (text) => text };
    } else if (Array.isArray(value)) {
      const items = value as unknown[];
      for (const [index, item] of items.entries()) {
        for (const found of eachString(item, path ? `${path}.${index}` : String(index))) {
          yield { path: found.path, with: (text) => items.map((other, i) => (i === index ? found.with(text) : other)) };
        }
      }
    } else if (value && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        for (const found of eachString(item, path ? `${path}.${key}` : key)) {
          yield { path: found.path, with: (text) => ({ ...value, [key]: found.with(text) }) };
        }
      }
    }
  }

  // The sample bodies of the authorization matrix pass validation; a lone surrogate (stored, it
  // would become U+FFFD) or a NUL (PostgreSQL refuses it) put into any one of their strings must be
  // refused with a 400 naming that field.
  it.each([
    ['a lone surrogate', '\uD800'],
    ['a NUL', '\u0000'],
  ])('refuses %s in every string of every sample body, naming the field', async (_name, edge) => {
    const accepted: string[] = [];
    for (const [key, row] of Object.entries(AUTHORIZATION_MATRIX)) {
      if (row.request?.body === undefined) continue;
      const [method = '', path = ''] = key.split(' ');
      const operation = document.paths[path]?.[method.toLowerCase()];
      if (!operation) continue;
      const body = substitute(row.request.body, world, world.clubA);
      for (const field of eachString(body)) {
        const original = String(field.path.split('.').reduce<unknown>((at, part) => (at as Record<string, unknown>)[part], body));
        const answer = await sendRaw(host.url, {
          method,
          path: targetOf(path, row.request, world, world.clubA),
          headers: { authorization: rightCredential(operation, world) ?? '', 'content-type': 'application/json' },
          body: JSON.stringify(field.with(`${original}${edge}x`)),
        });
        const problem = answer.status === 400 ? (JSON.parse(answer.body) as { errors?: { path: string }[] }) : undefined;
        if (!problem?.errors?.some((error) => error.path === `body.${field.path}`))
          accepted.push(`${key} body.${field.path}: ${answer.status}`);
      }
    }
    expect(accepted).toEqual([]);
  });

  it.each(operations.map((entry) => [`${entry.method} ${entry.path}`, entry] as const))(
    '%s',
    async (_name, { path, method, operation }) => {
      await fc.assert(
        fc.asyncProperty(requestArbitrary(operation, world, hostileAuthorizations), async (request) => {
          const target =
            path.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_m, name: string) => request.segments[name] ?? 'x') +
            (request.query ? `?${request.query}` : '');
          const headers: Record<string, string> = { ...request.extraHeaders };
          const authorization =
            request.credential === 'right'
              ? rightCredential(operation, world)
              : request.credential === 'plainUser'
                ? plainUser
                : request.credential === 'hostile'
                  ? request.hostileAuthorization
                  : undefined;
          if (authorization) headers['authorization'] = authorization;
          if (request.body !== undefined && request.contentType !== undefined) headers['content-type'] = headerSafe(request.contentType);
          errorLines.splice(0);
          const head = method === 'GET' && request.head;
          const sent = head ? 'HEAD' : method;
          const answer = await sendRaw(host.url, { method: sent, path: target, headers, body: request.body });
          const describe = () => describeRequest(sent, target, request, headers);
          checkAnswer(answer, describe, head);
          if (answer.status < 300 && carriesIllFormedText(request.body)) {
            throw new Error(
              `accepted (${answer.status}) a body with a lone surrogate, which the database would store as U+FFFD\n${describe()}`,
            );
          }
          if (errorLines.length) throw new Error(`logged at error level:\n${errorLines.join('\n').slice(0, 2_000)}\n${describe()}`);
          const after = await fingerprints.current();
          if (answer.status >= 400) {
            const changed = changedTables(baseline, after);
            if (changed.length) throw new Error(`a refused request (${answer.status}) changed ${changed.join(', ')}\n${describe()}`);
          }
          baseline = after;
        }),
        { numRuns: RUNS, ...(SEED !== undefined ? { seed: SEED } : {}), endOnFailure: false },
      );
    },
    180_000,
  );

  it('sent no credential into telemetry: no span, log record or envelope holds a token it used', async () => {
    await telemetry()?.flush();
    const credentials = [...Object.values(world.auth), plainUser, ...hostileAuthorizations]
      .map((authorization) => authorization.replace(/^(Bearer|Basic) /, ''))
      .filter((credential) => credential.length >= 20);
    expect(spans.getFinishedSpans().length).toBeGreaterThan(operations.length);
    const recorded = JSON.stringify(
      spans.getFinishedSpans().map((span) => ({ name: span.name, attributes: span.attributes, events: span.events, status: span.status })),
    );
    const sent = ingestion.bodies.join('\n');
    expect(sent.length).toBeGreaterThan(0);
    const leaked = credentials.filter((credential) => [recorded, sent, ...telemetryRecords].some((text) => text.includes(credential)));
    expect(leaked.map((credential) => credential.slice(0, 12) + '…')).toEqual([]);
  });
});
