import { EventHubProducerClient } from '@azure/event-hubs';
import type { InvocationContext } from '@azure/functions';
import postgres from 'postgres';
import type { DevHost } from '../../development/devhost/host';
import { trainingEvening, type HitRow } from '../../development/ingest/debeziumEvents';
import { sendChangeEvents } from '../../development/ingest/sendChangeEvents';
import { startLocalEventHubs, type LocalEventHubs } from '../../development/local/eventHubs/localEventHubs';
import { getSettings, overrideSettings } from '../../shared/config/settings';
import { closeSql } from '../../shared/db/client';
import { startFaultProxy, throughProxy, type FaultProxy } from '../support/faultProxy';
import { useIngestTablesExclusively } from '../ingest/exclusive';
import { startFeedHost, withIngestHandler } from '../ingest/feedHost';
import { uniqueClub } from '../ingest/fixtures';

// Real sockets, SDK link set-up, a retried batch and a reconnect take a while on a busy machine.
jest.setTimeout(90_000);

// One hub per test, so each consumer group reads only its own test's events.
const HUBS = { dbcut: 'club-data-dbcut', hubdrop: 'club-data-hubdrop' } as const;

interface Delivery {
  sequenceNumbers: number[];
  retryCount: number;
}

/** Polls until `condition` holds, failing with `what` after the deadline. */
async function eventually(what: string, condition: () => Promise<boolean> | boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * The ingest function through the local host, with PostgreSQL and the Event Hubs endpoint each
 * behind a fault proxy this file controls. `direct` reads the result past the proxies.
 */
describe('ingest under faults: the batch is retried and applied exactly once', () => {
  useIngestTablesExclusively();

  let hub: LocalEventHubs;
  let hubProxy: FaultProxy;
  let dbProxy: FaultProxy;
  let direct: postgres.Sql;
  let host: DevHost | undefined;
  const logged: { level: string; line: string }[] = [];
  const restores: (() => void)[] = [];
  let restoreHubName = () => {};

  beforeAll(async () => {
    const url = new URL(getSettings().DATABASE_URL ?? '');
    direct = postgres(url.toString(), { max: 1, onnotice: () => undefined });
    dbProxy = await startFaultProxy({ host: url.hostname, port: Number(url.port || 5432) });
    hub = await startLocalEventHubs({
      port: 0,
      eventHubs: {
        [HUBS.dbcut]: { partitionCount: 1, consumerGroups: ['ingest'] },
        [HUBS.hubdrop]: { partitionCount: 1, consumerGroups: ['ingest'] },
      },
    });
    hubProxy = await startFaultProxy({ host: hub.host, port: hub.port });
    restores.push(
      overrideSettings({
        DATABASE_URL: throughProxy(url.toString(), dbProxy),
        INGEST_EVENTHUB_CONNECTION: hub.connectionString().replace(`:${hub.port};`, `:${hubProxy.port};`),
        INGEST_EVENTHUB_CONSUMER_GROUP: 'ingest',
      }),
    );
    await closeSql();
  });

  afterEach(async () => {
    await host?.close();
    host = undefined;
    restoreHubName();
    dbProxy.accept();
    dbProxy.delay(0);
    hubProxy.accept();
  });

  afterAll(async () => {
    await closeSql();
    for (const restore of restores.splice(0)) restore();
    await hubProxy?.close();
    await hub?.close();
    await dbProxy?.close();
    await direct?.end();
  });

  /** Starts the feed for `consumerGroup`; `onDelivery` runs inside each invocation, alongside the real handler. */
  function startFeed(
    hubName: string,
    deliveries: Delivery[],
    onDelivery: (delivery: Delivery) => void,
    sleep?: (ms: number) => Promise<void>,
  ): Promise<DevHost> {
    restoreHubName = overrideSettings({ INGEST_EVENTHUB_NAME: hubName });
    const watched = withIngestHandler((ingestHandler) => async (messages: unknown, context: InvocationContext) => {
      const delivery = {
        sequenceNumbers: (context.triggerMetadata?.['sequenceNumberArray'] as number[] | undefined) ?? [],
        retryCount: context.retryContext?.retryCount ?? 0,
      };
      const running = ingestHandler(messages, context);
      onDelivery(delivery);
      await running;
      deliveries.push(delivery);
    });
    return startFeedHost(watched, logged, sleep);
  }

  const hitRows = (club: string) =>
    direct<{ record: string; value: string | null; deletedAt: Date | null; lsn: number }[]>`
      select source_record_id as record, value, deleted_at as "deletedAt", source_lsn::bigint::float8 as lsn
      from club_data_hit where source_club_id = ${club} order by source_record_id`;
  const shooterRows = (club: string) =>
    direct<{ record: string; name: string | null }[]>`
      select source_record_id as record, display_name as name from club_data_shooter where source_club_id = ${club} order by source_record_id`;

  /** Sends one evening and returns what its rows must look like once applied. */
  async function sendEvening(hubName: string, club: string, seed: number) {
    const evening = trainingEvening({ clubId: club, startsAt: new Date('2026-11-20T18:30:00Z'), shooters: 3, seed });
    const producer = new EventHubProducerClient(hub.connectionString(), hubName);
    try {
      await sendChangeEvents(producer, evening, { headersAsBytes: true });
    } finally {
      await producer.close();
    }
    const hitCreates = evening.filter((change) => change.entity === 'hits' && change.body?.op === 'c');
    const lastValue = new Map<string, string>();
    for (const change of evening) {
      const after = change.body?.after as HitRow | undefined;
      if (change.entity === 'hits' && after) lastValue.set(String(after.id), after.value.toFixed(1));
    }
    return { delivered: evening.filter((change) => change.body !== null).length, hits: hitCreates.length, lastValue };
  }

  it('PostgreSQL connections cut mid-batch: the batch fails, is retried once the server is back, and every row is applied once', async () => {
    const club = uniqueClub();
    const expected = await sendEvening(HUBS.dbcut, club, 11);
    const deliveries: Delivery[] = [];
    let cut = false;
    // Every round trip slowed, so the first batch is certainly mid-way when the connections go.
    dbProxy.delay(15);
    host = await startFeed(
      HUBS.dbcut,
      deliveries,
      () => {
        if (cut) return;
        cut = true;
        setTimeout(() => {
          dbProxy.refuse();
          dbProxy.cutAll();
        }, 60);
      },
      // The retry's wait: the server comes back, then the batch runs again.
      async () => {
        dbProxy.accept();
        dbProxy.delay(0);
        await new Promise((resolve) => setTimeout(resolve, 50));
      },
    );
    await eventually('every event applied', () => new Set(deliveries.flatMap((d) => d.sequenceNumbers)).size >= expected.delivered);

    expect(deliveries.some((delivery) => delivery.retryCount > 0)).toBe(true);
    expect(logged.some((entry) => entry.line.includes('event_batch_retry'))).toBe(true);
    expect(logged.some((entry) => entry.line.includes('event_batch_abandoned'))).toBe(false);
    const hits = await hitRows(club);
    expect(hits).toHaveLength(expected.hits);
    expect(new Set(hits.map((row) => row.record)).size).toBe(hits.length);
    for (const row of hits) expect(row.value).toBe(expected.lastValue.get(row.record));
    expect((await shooterRows(club)).map((row) => row.record)).toEqual(['1001', '1002', '1003']);
  });

  it('the Event Hubs endpoint drops the connection mid-batch: the consumer reconnects, nothing is lost or doubled', async () => {
    const club = uniqueClub();
    const expected = await sendEvening(HUBS.hubdrop, club, 12);
    const deliveries: Delivery[] = [];
    let dropped = false;
    host = await startFeed(HUBS.hubdrop, deliveries, () => {
      if (dropped) return;
      dropped = true;
      hubProxy.cutAll();
    });
    await eventually('every event applied', () => new Set(deliveries.flatMap((d) => d.sequenceNumbers)).size >= expected.delivered);
    // The consumer came back: a new connection through the proxy.
    await eventually('the consumer reconnected', () => hubProxy.openConnections > 0);
    expect(dropped).toBe(true);
    // More events than one batch holds: some were received over the new connection.
    expect(deliveries.length).toBeGreaterThan(1);

    const sequenceNumbers = deliveries.flatMap((delivery) => delivery.sequenceNumbers).sort((a, b) => a - b);
    // Each event handed to the function once: no gap, no repeat.
    expect(sequenceNumbers).toEqual(Array.from({ length: sequenceNumbers.length }, (_, i) => sequenceNumbers[0]! + i));
    const hits = await hitRows(club);
    expect(hits).toHaveLength(expected.hits);
    for (const row of hits) expect(row.value).toBe(expected.lastValue.get(row.record));
    expect((await shooterRows(club)).map((row) => row.record)).toEqual(['1001', '1002', '1003']);
  });
});
