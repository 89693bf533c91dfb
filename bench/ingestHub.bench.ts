import { EventHubProducerClient } from '@azure/event-hubs';
import type { InvocationContext } from '@azure/functions';
import { compare, type Comparison } from './harness';
import type { BenchContext } from './context';
import { startDevHost } from '../development/devhost/host';
import { asCoreMessages, hitEvents } from './hitEvents';
import { sendChangeEvents } from '../development/ingest/sendChangeEvents';
import { startLocalEventHubs } from '../development/local/eventHubs/localEventHubs';
import { afterIngest, startMeasuredHost } from '../development/local/measuredHost';
import type { FunctionDefinition } from '../shared/host/definition';
import { createLogger } from '../shared/log/logger';
import { functionDefinitions } from '../functions/definitions';
import { resetSettings } from '../shared/config/settings';
import { closeSql } from '../shared/db/client';
import { runSubject as runCore } from './ingest.bench';

const EVENTS = 10_000;
const CLUBS = 20;
const MAX_EVENT_BATCH_SIZE = 100; // host.json extensions.eventHubs.maxEventBatchSize
const ITERATIONS = 5;
const WARMUP = 1;

/**
 * 10,000 hit change events (20 clubs, so every partition gets work) through the whole local
 * trigger path: EventHubProducerClient → local hub (AMQP over loopback) → EventHubConsumerClient
 * in the local host → the worker's body/metadata conversion → an eventHub handler. The baseline
 * decodes the same JSON bodies and hands them to the same handler directly, in batches of
 * maxEventBatchSize: the handler's share with no transport at all. The figure says how much of an ingest run's time
 * the local path adds, so a slow local run is not mistaken for a slow ingest core.
 */
export default async function ingestHub(context: BenchContext): Promise<Comparison[]> {
  return [await transport(), await ingestThroughHub(context)];
}

async function transport(): Promise<Comparison> {
  const events = hitEvents(EVENTS, 4700, CLUBS);
  let handled = 0;
  let waiter: { target: number; resolve: () => void } | undefined;
  const handler = async (messages: unknown, _invocation: InvocationContext) => {
    // Touch every body as a real handler would before applying it.
    for (const message of messages as { after?: { value?: number } }[]) if (message.after?.value === -1) handled -= 1;
    handled += (messages as unknown[]).length;
    if (waiter && handled >= waiter.target) waiter.resolve();
    await Promise.resolve();
  };
  const definition: FunctionDefinition = {
    kind: 'eventHub',
    name: 'benchSink',
    options: { connection: 'BENCH_HUB', eventHubName: 'club-data', cardinality: 'many', handler },
  };

  const hub = await startLocalEventHubs({
    port: 0,
    eventHubs: { 'club-data': { partitionCount: 4 } },
    retention: { maxEvents: 1_000_000 },
  });
  const host = await startDevHost([definition], {
    port: 0,
    log: createLogger({ minLevel: 'error' }),
    setting: (name) => (name === 'BENCH_HUB' ? hub.connectionString() : undefined),
    runTimers: false,
    eventHubTriggers: { maxEventBatchSize: MAX_EVENT_BATCH_SIZE, maxWaitTimeInSeconds: 1 },
  });
  const producer = new EventHubProducerClient(hub.connectionString(), 'club-data');
  // The bodies as they travel: JSON bytes, decoded for the handler as the worker does.
  const encoded = events.map((event) => Buffer.from(JSON.stringify(event.body), 'utf8'));
  try {
    const result = await compare({
      title: `${EVENTS.toLocaleString('en')} hit events into an eventHub handler (batches of up to ${MAX_EVENT_BATCH_SIZE})`,
      baseline: {
        name: 'the same JSON bodies decoded and handed to the handler directly',
        run: async () => {
          for (let i = 0; i < encoded.length; i += MAX_EVENT_BATCH_SIZE) {
            const batch = encoded.slice(i, i + MAX_EVENT_BATCH_SIZE).map((bytes) => JSON.parse(bytes.toString('utf8')) as unknown);
            await handler(batch, undefined as never);
          }
        },
      },
      subject: {
        name: 'producer → local hub → consumer → worker conversion → handler',
        run: async () => {
          const done = new Promise<void>((resolve) => (waiter = { target: handled + EVENTS, resolve }));
          await sendChangeEvents(producer, events);
          await done;
        },
      },
      iterations: ITERATIONS,
      warmup: WARMUP,
    });
    const perSecond = (ms: number) => Math.round((EVENTS / ms) * 1000).toLocaleString('en');
    console.log(
      `  events/s  local trigger path ${perSecond(result.subject.medianMs)}, direct ${perSecond(result.baseline.medianMs)} (medians)`,
    );
    return result;
  } finally {
    await producer.close();
    await host.close();
    await hub.close();
  }
}

const INGEST_ITERATIONS = 3;
const CORE_BATCH = 500; // bench/ingest.bench.ts

/**
 * The same 10,000 hit events through producer → local hub → the local host's feed → the real
 * `ingest` function of functions/definitions.ts (status switch on) → PostgreSQL, against the
 * core alone as bench/ingest.bench.ts measures it: `applyIngestBatch` on the same events, decoded
 * as the worker hands them over, in batches of 500. Every run writes clubs of its own, so both
 * sides insert 10,000 new rows each time. The function opens its pool from settings, so the bench
 * database's URL is its DATABASE_URL for the run.
 */
async function ingestThroughHub({ sql, url }: BenchContext): Promise<Comparison> {
  const saved = { ...process.env };
  const hub = await startLocalEventHubs({
    port: 0,
    eventHubs: { 'club-data': { partitionCount: 4 } },
    retention: { maxEvents: 1_000_000 },
  });
  Object.assign(process.env, {
    DATABASE_URL: url,
    SVC_INGEST_STATUS_ENABLED: 'true',
    WEBSITE_INSTANCE_ID: 'bench-hub',
    INGEST_EVENTHUB_CONNECTION: hub.connectionString(),
    INGEST_EVENTHUB_NAME: 'club-data',
    INGEST_EVENTHUB_CONSUMER_GROUP: '$Default',
  });
  resetSettings();
  let applied = 0;
  let waiter: { target: number; resolve: () => void } | undefined;
  // Counts what the real function has finished with, to know when a run is through.
  const definitions = afterIngest(functionDefinitions, (messages) => {
    applied += messages.length;
    if (waiter && applied >= waiter.target) waiter.resolve();
  });
  const host = await startMeasuredHost(definitions, { maxEventBatchSize: MAX_EVENT_BATCH_SIZE, maxWaitTimeInSeconds: 1 });
  const producer = new EventHubProducerClient(hub.connectionString(), 'club-data');
  let nextClubs = 5000;
  const freshClubs = () => (nextClubs += CLUBS);
  try {
    const result = await compare({
      title: `${EVENTS.toLocaleString('en')} hit events into PostgreSQL: the ingest function behind the local hub vs the apply core alone`,
      baseline: {
        name: `applyIngestBatch, batches of ${CORE_BATCH} (bench/ingest.bench.ts)`,
        run: async () => {
          const messages = asCoreMessages(hitEvents(EVENTS, freshClubs(), CLUBS));
          await runCore(sql, messages, nextClubs);
        },
      },
      subject: {
        name: `producer → local hub → consumer → ingest function (batches of up to ${MAX_EVENT_BATCH_SIZE}) → PostgreSQL`,
        run: async () => {
          const done = new Promise<void>((resolve) => (waiter = { target: applied + EVENTS, resolve }));
          await sendChangeEvents(producer, hitEvents(EVENTS, freshClubs(), CLUBS));
          await done;
        },
      },
      iterations: INGEST_ITERATIONS,
      warmup: WARMUP,
    });
    const [rows]: [{ count: number }?] = await sql`select count(*)::int as count from club_data_hit where source_club_id >= '5000'`;
    const perSecond = (ms: number) => Math.round((EVENTS / ms) * 1000).toLocaleString('en');
    console.log(
      `  events/s  ingest through the local hub ${perSecond(result.subject.medianMs)}, core alone ${perSecond(result.baseline.medianMs)} (medians; ${rows?.count ?? 0} rows written)`,
    );
    return result;
  } finally {
    await producer.close();
    await host.close();
    await hub.close();
    await closeSql();
    for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
    Object.assign(process.env, saved);
    resetSettings();
  }
}
