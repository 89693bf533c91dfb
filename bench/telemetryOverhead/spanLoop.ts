import { randomUUID } from 'node:crypto';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { createMemoryIngestion } from '../../development/appInsightsFake/memoryIngestion';
import { startQuerySpan } from '../../shared/db/querySpan';
import { startTelemetry, stopTelemetry } from '../../shared/telemetry/startup';
import { telemetry } from '../../shared/telemetry/telemetry';

/**
 * What telemetry costs per kept request, without the request: a loop recording what one inbox
 * page records (the operation's server span, one statement span inside it, the inbox statement's
 * text) through the distro with every trace kept and its exporter in memory, and the process's
 * CPU time per request. No network and no host, so another process's load moves it much less
 * than the whole-path bench; `node --cpu-prof` on it shows where the time goes.
 *
 *   npx tsx bench/telemetryOverhead/spanLoop.ts [off|on] [--memory-span-exporter]
 *   (APPLICATION_INSIGHTS_NO_STANDARD_METRICS=true: without the distro's standard metrics)
 *
 * Prints the lowest and the median CPU per request of SPAN_LOOP_ROUNDS rounds (9) of
 * SPAN_LOOP_REQUESTS requests (4,000), after a warm-up.
 */
const INBOX_STATEMENT = `
    select id, title, body, tone, read_at is not null as read, seq,
           to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as position,
           coalesce((select unread from notification_unread_count where user_id = \0), 0) as unread
    from notification
    where user_id = (select \0::text)
      \0
      \0
    order by created_at desc, seq desc
    limit (select \0::int)`;

async function main(): Promise<void> {
  const on = process.argv[2] !== 'off';
  const parts = INBOX_STATEMENT.split('\0');
  // A tagged template's strings, as postgres.js hands them to the pool (querySpan keys on them).
  const strings = Object.assign([...parts], { raw: parts });
  const ingestion = createMemoryIngestion();
  if (on) {
    const spans = new InMemorySpanExporter();
    const backend = await startTelemetry({
      connectionString: `InstrumentationKey=${randomUUID()};IngestionEndpoint=https://ingestion.invalid/`,
      secrets: ['a-secret-that-never-appears'],
      serviceName: 'span-loop',
      sampleEverything: true,
      exporterHttpClient: ingestion,
      ...(process.argv.includes('--memory-span-exporter') ? { spanProcessors: [new SimpleSpanProcessor(spans)] } : {}),
      liveMetrics: false,
      offlineStorage: false,
    });
    if (!backend) throw new Error('telemetry did not start');
    setInterval(() => spans.reset(), 1_000).unref();
  }

  const request = async () => {
    const span = telemetry()?.requestSpan({
      method: 'GET',
      fallbackRoute: '/api/notifications/{*rest}',
      path: '/api/notifications',
      requestId: randomUUID(),
      traceparent: null,
      tracestate: null,
    });
    const statement = async () => {
      const query = startQuerySpan(strings, 'user');
      // The statement's answer arrives in a later turn, as from the database.
      await Promise.resolve();
      query?.end();
    };
    await (span ? span.run(statement) : statement());
    span?.end({ status: 200, route: '/api/notifications', caller: 'user' });
  };
  const loop = async (count: number) => {
    for (let i = 0; i < count; i += 1) {
      await request();
      // Let the batch processor's timers and the exporter's promises run, as between requests.
      if (i % 50 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    await telemetry()?.flush();
  };

  const requests = Number(process.env['SPAN_LOOP_REQUESTS'] ?? 4_000);
  const rounds = Number(process.env['SPAN_LOOP_ROUNDS'] ?? 9);
  await loop(5_000);
  const perRequest: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    const before = process.cpuUsage();
    await loop(requests);
    const used = process.cpuUsage(before);
    perRequest.push((used.user + used.system) / requests);
  }
  perRequest.sort((a, b) => a - b);
  const format = (micros: number | undefined) => `${(micros ?? 0).toFixed(1)} µs`;
  console.log(
    `telemetry ${on ? 'on' : 'off'}: CPU per request lowest ${format(perRequest[0])}, median ${format(perRequest[Math.floor(rounds / 2)])}` +
      (on ? ` (${ingestion.sent.requests} exports, ${Math.round(ingestion.sent.characters / 1e3)} k characters)` : ''),
  );
  await stopTelemetry();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
