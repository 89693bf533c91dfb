import { randomUUID } from 'node:crypto';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { InMemoryLogRecordExporter, SimpleLogRecordProcessor } from '@opentelemetry/sdk-logs';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { startFakeAppInsights, type FakeAppInsights } from '../../development/appInsightsFake/server';
import { readFakeTls } from '../../development/costsFake/certificate';
import { getSettings, overrideSettings } from '../../shared/config/settings';
import { getSql } from '../../shared/db/client';
import { appLogger } from '../../shared/log/appLogger';
import { notify } from '../../shared/notifications/notify';
import { secretValues, startTelemetry, stopTelemetry } from '../../shared/telemetry/startup';
import { telemetry } from '../../shared/telemetry/telemetry';
import { pushKnownClubs, SYNC_PATH } from '../../edge/cloudClient';
import { createBox } from '../support/fixtures';
import { useTestHost } from '../support/testHost';
import { bearer } from '../support/tokens';

const spans = new InMemorySpanExporter();
const logRecords = new InMemoryLogRecordExporter();
let fake: FakeAppInsights;

/** A credential the process knows as secret (the cost provider's client secret). */
const CLIENT_SECRET = `cs~${randomUUID()}${randomUUID()}`;

beforeAll(async () => {
  fake = await startFakeAppInsights({ tls: readFakeTls(process.env['NODE_EXTRA_CA_CERTS'] ?? '') });
  const backend = await startTelemetry({
    connectionString: fake.connectionString,
    secrets: [...secretValues(getSettings()), CLIENT_SECRET, fake.connectionString],
    serviceName: 'shooting-club-backend-test',
    spanProcessors: [new SimpleSpanProcessor(spans)],
    logRecordProcessors: [new SimpleLogRecordProcessor(logRecords)],
    sampleEverything: true,
    liveMetrics: false,
    offlineStorage: false,
  });
  expect(backend).toBeDefined();
});

afterAll(async () => {
  await stopTelemetry();
  await fake.close();
});

// At info, so a request's http_request line would be there to see (the test runs log at warn).
let restoreLogLevel: () => void = () => undefined;
beforeAll(() => {
  restoreLogLevel = overrideSettings({ LOG_LEVEL: 'info' });
});
afterAll(() => restoreLogLevel());
const host = useTestHost();

const finished = () => spans.getFinishedSpans();
const serverSpanOf = (requestId: string | null) =>
  finished().filter((span) => span.kind === SpanKind.SERVER && span.attributes['app.request_id'] === requestId);
const childrenOf = (parent: ReadableSpan) => finished().filter((span) => span.parentSpanContext?.spanId === parent.spanContext().spanId);

async function seedInbox(userId: string, count: number): Promise<void> {
  for (let i = 0; i < count; i += 1) {
    await getSql().begin((tx) => notify(tx, { userId, title: `Entry ${i}`, tone: 'info', kind: 'member', source: 'test', channels: [] }));
  }
}

describe('telemetry of an HTTP operation', () => {
  it('is one server span named by the route template, with status and caller kind, and a child span per database query', async () => {
    const user = `user-${randomUUID()}`;
    await seedInbox(user, 3);
    // A token's first answered request also records its sign-in (the profile); later ones do not.
    const headers = await bearer(user);
    expect((await host.request('GET', '/api/notifications?limit=2', { headers })).status).toBe(200);
    spans.reset();
    const response = await host.request('GET', '/api/notifications?limit=2', { headers });
    expect(response.status).toBe(200);

    const [server, ...others] = serverSpanOf(response.headers.get('x-request-id'));
    expect(others).toEqual([]);
    expect(server?.name).toBe('GET /api/notifications');
    expect(server?.attributes).toMatchObject({
      'http.request.method': 'GET',
      'http.route': '/api/notifications',
      'http.response.status_code': 200,
      'app.caller.kind': 'user',
      'url.path': '/api/notifications',
    });
    // The user id is in the path of no attribute: a caller kind, never who.
    expect(JSON.stringify(server?.attributes)).not.toContain(user);

    const queries = childrenOf(server as ReadableSpan);
    expect(queries.length).toBeGreaterThan(0);
    for (const query of queries) {
      expect(query.kind).toBe(SpanKind.CLIENT);
      expect(query.attributes['db.system']).toBe('postgresql');
      expect(query.name).toMatch(/^(SELECT|INSERT|UPDATE|DELETE|BEGIN|WITH)\b/);
      // The statement as written in the code: placeholders, never the user id it was run with.
      expect(JSON.stringify(query.attributes)).not.toContain(user);
    }
    // The inbox page is one round trip: page and unread count in one statement.
    expect(queries.map((query) => query.attributes['db.query.text'])).toEqual([expect.stringMatching(/from notification\b/)]);
    expect(queries.map((query) => query.name)).toEqual(['SELECT notification']);
  });

  it('continues the trace of a caller that sends traceparent', async () => {
    const traceId = randomUUID().replace(/-/g, '');
    const parentId = randomUUID().replace(/-/g, '').slice(0, 16);
    const response = await host.request('GET', '/healthz', { headers: { traceparent: `00-${traceId}-${parentId}-01` } });
    const [server] = serverSpanOf(response.headers.get('x-request-id'));
    expect(server?.spanContext().traceId).toBe(traceId);
    expect(server?.parentSpanContext?.spanId).toBe(parentId);
    expect(server?.name).toBe('GET /healthz');
    // The storage probe's Azure SDK call is a dependency of the operation (its SDK loads apart).
    expect(childrenOf(server as ReadableSpan).map((span) => span.name)).toEqual(
      expect.arrayContaining([expect.stringMatching(/TableServiceClient\.getProperties/), 'SELECT']),
    );
  });

  it('names a refused or unmatched call by its template, with the anonymous caller, not as a failure of the service', async () => {
    const unauthorized = await host.request('GET', '/api/notifications', {});
    expect(unauthorized.status).toBe(401);
    const [refused] = serverSpanOf(unauthorized.headers.get('x-request-id'));
    expect(refused?.name).toBe('GET /api/notifications');
    expect(refused?.attributes).toMatchObject({ 'http.response.status_code': 401, 'app.caller.kind': 'anonymous' });
    expect(refused?.status.code).not.toBe(SpanStatusCode.ERROR);

    const unknown = await host.request('GET', '/api/notifications/a/b/c/d', { headers: await bearer('someone') });
    expect(unknown.status).toBe(404);
    const [unmatched] = serverSpanOf(unknown.headers.get('x-request-id'));
    // No route matched: the function's own route names the operation, never the raw path.
    expect(unmatched?.name).toBe('GET /api/notifications/{*rest}');
  });

  it('replaces the http_request log line: the server span is that record', async () => {
    logRecords.reset();
    const response = await host.request('GET', '/api/notifications?limit=nope', { headers: await bearer('someone') });
    expect(response.status).toBe(400);
    expect(serverSpanOf(response.headers.get('x-request-id'))).toHaveLength(1);
    expect(logRecords.getFinishedLogRecords().map((record) => record.body)).not.toContain('http_request');
    expect(host.logLines.filter((line) => line.includes('"http_request"'))).toEqual([]);
  });
});

describe('telemetry of an ingest batch', () => {
  it('is a batch span with size, applied, rejected and dead-lettered, under the function span', async () => {
    spans.reset();
    logRecords.reset();
    const input = [
      { body: { not: 'a change' }, properties: {}, partitionId: '3' },
      { body: 'garbage', properties: {}, partitionId: '3' },
    ];
    const response = await host.request('POST', '/admin/functions/ingest', { json: { input } });
    expect(response.status).toBeLessThan(300);
    const batch = finished().find((span) => span.name === 'ingest batch');
    expect(batch?.attributes).toMatchObject({
      'messaging.batch.message_count': 2,
      'app.ingest.applied': 0,
      'app.ingest.rejected': 2,
      'app.ingest.dead_lettered': 0,
    });
    const invocation = finished().find((span) => span.spanContext().spanId === batch?.parentSpanContext?.spanId);
    expect(invocation?.name).toBe('ingest');
    expect(invocation?.attributes).toMatchObject({ 'app.trigger': 'eventHub', 'messaging.batch.message_count': 2 });

    // The batch's warning is a structured record of the same trace: its fields are dimensions, not JSON text.
    const warning = logRecords.getFinishedLogRecords().find((record) => record.body === 'ingest_contract_rejects');
    expect(warning?.severityText).toBe('WARN');
    expect(warning?.attributes).toMatchObject({ rejected: 2, function: 'ingest' });
    expect(warning?.spanContext?.traceId).toBe(batch?.spanContext().traceId);
  });
});

describe('telemetry of the box agent', () => {
  it("a push to the cloud is a client span whose trace the cloud's operation continues, without the edge token anywhere", async () => {
    const box = await createBox(getSql());
    spans.reset();
    const result = await pushKnownClubs({ baseUrl: host.url, token: box.token, timeoutSeconds: 10 }, []);
    expect(result).toBeDefined();

    const [push, ...others] = finished().filter((span) => span.kind === SpanKind.CLIENT && span.name === `POST ${SYNC_PATH}`);
    expect(others).toEqual([]);
    expect(push?.attributes).toMatchObject({
      'http.request.method': 'POST',
      'url.path': SYNC_PATH,
      'http.response.status_code': 200,
      'server.address': '127.0.0.1',
    });
    // The cloud's operation is the push's child: it honoured the traceparent the agent sent.
    const [operation] = finished().filter((span) => span.kind === SpanKind.SERVER && span.name === `POST ${SYNC_PATH}`);
    expect(operation?.spanContext().traceId).toBe(push?.spanContext().traceId);
    expect(operation?.parentSpanContext?.spanId).toBe(push?.spanContext().spanId);
    expect(operation?.attributes['app.caller.kind']).toBe('box');
    expect(JSON.stringify(finished().map((span) => [span.name, span.attributes, span.events]))).not.toContain(box.token);
  });

  it('a push the cloud refuses is a failed client span with the status, the token still nowhere', async () => {
    const token = `edge_${randomUUID().replace(/-/g, '')}`;
    spans.reset();
    await expect(pushKnownClubs({ baseUrl: host.url, token, timeoutSeconds: 10 }, [])).rejects.toMatchObject({ reason: 'token_rejected' });
    const [push] = finished().filter((span) => span.kind === SpanKind.CLIENT && span.name === `POST ${SYNC_PATH}`);
    expect(push?.attributes['http.response.status_code']).toBe(401);
    expect(push?.status.code).toBe(SpanStatusCode.ERROR);
    expect(JSON.stringify(finished().map((span) => [span.name, span.attributes, span.events]))).not.toContain(token);
  });
});

describe('what telemetry never carries', () => {
  it('holds no bearer token, edge token, client secret or connection string in any span, log record or envelope sent', async () => {
    const token = (await bearer('leak-check')).authorization ?? '';
    const edgeToken = `edge_${randomUUID().replace(/-/g, '')}${randomUUID().replace(/-/g, '').slice(0, 11)}`;
    const settings = getSettings();
    await host.request('GET', '/api/notifications', { headers: { authorization: token } });
    await host.request('POST', '/api/edge/clubs/sync', { headers: { authorization: `Bearer ${edgeToken}` }, json: { clubs: [] } });
    // A token in a path and in a query: a caller may put one anywhere.
    await host.request('GET', `/api/notifications/${token.slice(7)}`, { headers: { authorization: token } });
    await host.request('GET', `/api/notifications?cursor=${edgeToken}`, { headers: { authorization: token } });
    // Code that logs a failure quoting a secret (as a provider's error may).
    appLogger().error('provider_failed', { error: new Error(`AADSTS7000215: Invalid client secret provided: ${CLIENT_SECRET}`) });
    appLogger().warn('storage_failed', { detail: `could not reach ${settings.AzureWebJobsStorage ?? ''}` });
    await telemetry()?.flush();

    const recorded = JSON.stringify([
      finished().map((span) => ({ name: span.name, attributes: span.attributes, events: span.events, status: span.status })),
      logRecords.getFinishedLogRecords().map((record) => ({ body: record.body, attributes: record.attributes })),
    ]);
    const sent = fake.bodies.join('\n');
    expect(logRecords.getFinishedLogRecords().map((record) => record.body)).toEqual(
      expect.arrayContaining(['provider_failed', 'storage_failed']),
    );
    expect(sent).toContain('provider_failed');
    const secrets = {
      bearer: token.slice(7),
      edgeToken,
      clientSecret: CLIENT_SECRET,
      storageKey: /AccountKey=([^;]+)/.exec(settings.AzureWebJobsStorage ?? '')?.[1] ?? 'no storage key in the test settings',
      instrumentationKey: /InstrumentationKey=([^;]+)/.exec(fake.connectionString)?.[1] ?? '',
    };
    for (const [name, secret] of Object.entries(secrets)) {
      expect({ name, inRecords: recorded.includes(secret) }).toEqual({ name, inRecords: false });
      // The instrumentation key is the envelope's address (iKey); it may only stand there.
      const elsewhere = name === 'instrumentationKey' ? sent.split(`"iKey":"${secret}"`).join('') : sent;
      expect({ name, inWire: elsewhere.includes(secret) }).toEqual({ name, inWire: false });
    }
  });
});
