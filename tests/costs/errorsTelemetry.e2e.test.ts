import { InMemoryLogRecordExporter, SimpleLogRecordProcessor } from '@opentelemetry/sdk-logs';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { startFakeAppInsights, type FakeAppInsights } from '../../development/appInsightsFake/server';
import { readFakeTls } from '../../development/costsFake/certificate';
import type { FakeCostProvider, FakeFailure, FakeOperation } from '../../development/costsFake/server';
import { costsFunction } from '../../functions/costs';
import { getSettings } from '../../shared/config/settings';
import type { CostService } from '../../shared/costs/service';
import { secretValues, startTelemetry, stopTelemetry } from '../../shared/telemetry/startup';
import { telemetry } from '../../shared/telemetry/telemetry';
import { startTestHost, type TestHost } from '../support/testHost';
import { bearer } from '../support/tokens';
import { clockAt, SECRET, serviceFor, startFake } from './support';

/**
 * The cost provider's failures with telemetry on: each is a 502 operation with its problem code and
 * one structured log record in the operation's trace, and across all of them neither the client secret (which the
 * telemetry backend is not told) nor an access token the fake issued reaches a span, a log record
 * or the wire to Application Insights.
 */
describe('cost provider failures in telemetry', () => {
  const spans = new InMemorySpanExporter();
  const logRecords = new InMemoryLogRecordExporter();
  let ingestion: FakeAppInsights;
  let fake: FakeCostProvider;
  let host: TestHost;
  let current: CostService;
  const wrongSecret = 'Wr0ng~secret.value-not-to-be-sent';

  beforeAll(async () => {
    const tls = readFakeTls(process.env['NODE_EXTRA_CA_CERTS'] ?? '');
    ingestion = await startFakeAppInsights({ tls });
    await startTelemetry({
      connectionString: ingestion.connectionString,
      secrets: secretValues(getSettings()),
      serviceName: 'costs-test',
      spanProcessors: [new SimpleSpanProcessor(spans)],
      logRecordProcessors: [new SimpleLogRecordProcessor(logRecords)],
      sampleEverything: true,
      liveMetrics: false,
      offlineStorage: false,
    });
    fake = await startFake();
    host = await startTestHost([costsFunction(() => current)]);
  });

  afterAll(async () => {
    await host.close();
    await fake.close();
    await stopTelemetry();
    await ingestion.close();
  });

  const failures: [FakeOperation, FakeFailure, string][] = [
    ['token', 'expired_secret', 'secret_expired'],
    ['query', 'rbac_denied', 'access_denied'],
    ['query', 'server_error', 'provider_unavailable'],
    ['token', 'server_error', 'provider_unavailable'],
  ];

  it.each(failures)('%s %s: a 502 operation with its problem code and one structured failure record', async (operation, failure, code) => {
    fake.clearFailures();
    fake.fail(operation, failure);
    current = serviceFor(fake, clockAt('2026-11-21T10:00:00Z').now);
    spans.reset();
    logRecords.reset();
    const response = await host.request('GET', '/api/admin/v1/costs/summary', {
      headers: await bearer('admin-1', { roles: ['platform_admin'] }),
    });
    expect(response.status).toBe(502);
    const operationSpan = spans
      .getFinishedSpans()
      .find((span) => span.attributes['app.request_id'] === response.headers.get('x-request-id'));
    expect(operationSpan?.attributes).toMatchObject({
      'http.route': '/api/admin/v1/costs/summary',
      'http.response.status_code': 502,
      'app.problem.code': code,
    });
    const records = logRecords.getFinishedLogRecords().filter((record) => record.body === 'cloud_costs_summary_failed');
    expect(records).toHaveLength(1);
    expect(records[0]?.spanContext?.traceId).toBe(operationSpan?.spanContext().traceId);
  });

  it('a wrong secret: refused, and the secret is in no record', async () => {
    fake.clearFailures();
    current = serviceFor(fake, clockAt('2026-11-21T10:00:00Z').now, { clientSecret: wrongSecret });
    const response = await host.request('GET', '/api/admin/v1/costs/breakdown', {
      headers: await bearer('admin-1', { roles: ['platform_admin'] }),
    });
    expect(response.status).toBe(502);
  });

  it('across all of them: no client secret and no access token in any span, log record or envelope sent', async () => {
    fake.clearFailures();
    current = serviceFor(fake, clockAt('2026-11-21T10:00:00Z').now);
    // One success too, so tokens were issued and used.
    const ok = await host.request('GET', '/api/admin/v1/costs/summary', {
      headers: await bearer('admin-1', { roles: ['platform_admin'] }),
    });
    expect(ok.status).toBe(200);
    await telemetry()?.flush();
    const recorded = JSON.stringify([
      spans.getFinishedSpans().map((span) => ({ name: span.name, attributes: span.attributes, events: span.events, status: span.status })),
      logRecords.getFinishedLogRecords().map((record) => ({ body: record.body, attributes: record.attributes })),
    ]);
    const sent = ingestion.bodies.join('\n');
    expect(sent).toContain('cloud_costs_');
    expect(fake.issuedTokens().length).toBeGreaterThan(0);
    for (const secret of [SECRET, wrongSecret, ...fake.issuedTokens()]) {
      expect(recorded.includes(secret)).toBe(false);
      expect(sent.includes(secret)).toBe(false);
    }
  });
});
