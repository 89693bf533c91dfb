import { randomBytes } from 'node:crypto';
import { EventHubProducerClient } from '@azure/event-hubs';
import fc from 'fast-check';
import { functionDefinitions } from '../../functions/definitions';
import type { DevHost } from '../../development/devhost/host';
import { startLocalEventHubs, type LocalEventHubs } from '../../development/local/eventHubs/localEventHubs';
import { overrideSettings } from '../../shared/config/settings';
import { getSql } from '../../shared/db/client';
import { classifyMessage } from '../../shared/ingest/contract';
import { useIngestTablesExclusively } from '../ingest/exclusive';
import { startFeedHost } from '../ingest/feedHost';
import { hitBody, uniqueClub } from '../ingest/fixtures';
import { hostileString } from '../support/schemaArbitrary';

/**
 * Property: whatever one hostile change event holds (numbers at and beyond every range, strings
 * with every class of hostile character and size, headers disagreeing with the payload, fields
 * missing or added), sent through the real EventHubProducerClient to the local hub ahead of a
 * valid event on the same partition, the real `ingest` function behind the local host applies
 * the valid event within the budget without a retry, writes no row for the hostile one unless
 * the contract accepts it, logs nothing at error level, and the stored state stays bounded.
 * FUZZ_RUNS lengthens the campaign (docs/testing-hostile.md); a failure prints its seed.
 */
const RUNS = Number(process.env['FUZZ_RUNS'] ?? 40);
const SEED = process.env['FUZZ_SEED'] ? Number(process.env['FUZZ_SEED']) : undefined;
/** The valid event must land well inside the first retry delay (1 s, then 2 s, ...): no retry needed. */
const LANDS_WITHIN_MS = 15_000;
const HUB = 'club-data';

jest.setTimeout(Math.max(120_000, RUNS * 20_000));

type Path = readonly string[];

/** Fields of the hit envelope a hostile value replaces (or removes). */
const FIELDS: readonly Path[] = [
  ['op'],
  ['ts_ms'],
  ['before'],
  ['after'],
  ['source'],
  ['source', 'ts_ms'],
  ['source', 'lsn'],
  ['source', 'txId'],
  ['source', 'table'],
  ['source', 'name'],
  ['source', 'snapshot'],
  ['after', 'id'],
  ['after', 'club_id'],
  ['after', 'shooter_id'],
  ['after', 'discipline'],
  ['after', 'series'],
  ['after', 'shot_no'],
  ['after', 'value'],
  ['after', 'shot_at'],
];

/** Numbers at and beyond every range the contract and the database know. */
const hostileNumber = fc.oneof(
  fc.constantFrom(
    0,
    -0,
    -1,
    0.5,
    10.9,
    10.95,
    11,
    1e16,
    -1e15,
    8.64e15,
    8.64e15 + 1,
    Date.UTC(2200, 0, 1),
    Date.UTC(2200, 0, 1) + 1,
    2 ** 31,
    2 ** 53,
    2 ** 63,
    -(2 ** 63),
    1e308,
    5e-324,
  ),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
);

const hostileText = fc.oneof(
  hostileString,
  fc
    .tuple(
      fc.constantFrom('\u0000', '\ud800', '\udc00', '\u0085', '\u001b', '\u007f'),
      fc.constantFrom(1, 64, 65, 201, 1025, 100_000, 700_000),
    )
    .map(([char, size]) => `${'x'.repeat(size)}${char}`),
);

const hostileValue = fc.oneof(
  { weight: 3, arbitrary: hostileNumber },
  { weight: 3, arbitrary: hostileText },
  { weight: 1, arbitrary: fc.constantFrom(null, true, [], {}, [1, 2], { nested: { deeper: 1 } }) },
);

type Mutation =
  | { kind: 'replace'; path: Path; value: unknown }
  | { kind: 'remove'; path: Path }
  | { kind: 'extra'; key: string; value: unknown }
  | { kind: 'header'; name: 'sourceTopic' | 'sourceClubId'; value: string | null };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('replace' as const), path: fc.constantFrom(...FIELDS), value: hostileValue }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('remove' as const), path: fc.constantFrom(...FIELDS) }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('extra' as const), key: hostileText.map((key) => key.slice(0, 200)), value: hostileValue }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('header' as const),
      name: fc.constantFrom('sourceTopic' as const, 'sourceClubId' as const),
      value: fc.oneof(fc.constant(null), hostileText, fc.constantFrom('club.1.hits', 'club.4711.shooters', '1', 'club..hits')),
    }),
  },
);

const hostileEvent = fc.record({ mutations: fc.array(mutation, { minLength: 1, maxLength: 3 }), sameSend: fc.boolean() });

function mutated(club: string, mutations: readonly Mutation[]) {
  const body = structuredClone<Record<string, unknown>>(hitBody({ id: 1, clubId: club, lsn: 1 }));
  const properties: Record<string, string> = { sourceTopic: `club.${club}.hits`, sourceClubId: club };
  for (const change of mutations) {
    if (change.kind === 'header') {
      if (change.value === null) delete properties[change.name];
      else properties[change.name] = change.value;
    } else if (change.kind === 'extra') {
      Object.defineProperty(body, change.key, { value: change.value, enumerable: true, writable: true, configurable: true });
    } else {
      const parent = change.path.slice(0, -1).reduce<unknown>((node, key) => (node as Record<string, unknown> | null)?.[key], body);
      if (typeof parent !== 'object' || parent === null) continue;
      const key = change.path.at(-1)!;
      if (change.kind === 'remove') delete (parent as Record<string, unknown>)[key];
      else (parent as Record<string, unknown>)[key] = change.value;
    }
  }
  return { body, properties };
}

async function eventually(condition: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return condition();
}

describe('hostile change events through the real producer never stop ingest', () => {
  useIngestTablesExclusively();
  const sql = () => getSql();
  const logged: { level: string; line: string }[] = [];
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  let hub: LocalEventHubs;
  let producer: EventHubProducerClient;
  let host: DevHost;
  let restoreSettings = () => {};

  beforeAll(async () => {
    process.on('unhandledRejection', onUnhandled);
    hub = await startLocalEventHubs({ port: 0, eventHubs: { [HUB]: { partitionCount: 2, consumerGroups: ['ingest'] } } });
    restoreSettings = overrideSettings({
      SVC_INGEST_STATUS_ENABLED: 'true',
      WEBSITE_INSTANCE_ID: `fuzz-${randomBytes(4).toString('hex')}`,
      INGEST_EVENTHUB_CONNECTION: hub.connectionString(),
      INGEST_EVENTHUB_NAME: HUB,
      INGEST_EVENTHUB_CONSUMER_GROUP: 'ingest',
    });
    producer = new EventHubProducerClient(hub.connectionString(), HUB);
    host = await startFeedHost(functionDefinitions, logged);
  }, 120_000);

  afterAll(async () => {
    process.off('unhandledRejection', onUnhandled);
    await host?.close();
    await producer?.close();
    await hub?.close();
    restoreSettings();
  });

  it('applies the valid event behind any hostile one, changes no row for a refused one, and keeps state bounded', async () => {
    await fc.assert(
      fc.asyncProperty(hostileEvent, fc.constantFrom('0', '1'), async ({ mutations, sameSend }, partitionId) => {
        const club = uniqueClub();
        const hostile = mutated(club, mutations);
        const valid = {
          body: hitBody({ id: 2, clubId: club, lsn: 2 }),
          properties: { sourceTopic: `club.${club}.hits`, sourceClubId: club },
        };
        // JSON bytes, as the connector sends them: lone surrogates and NUL travel as escapes.
        const encoded = (item: { body: unknown; properties: Record<string, string> }) => ({
          body: Buffer.from(JSON.stringify(item.body), 'utf8'),
          properties: item.properties,
        });
        const errorLines = () => logged.filter((line) => line.level === 'error').map((line) => line.line);
        const errorsBefore = errorLines().length;
        if (sameSend) await producer.sendBatch([encoded(hostile), encoded(valid)], { partitionId });
        else {
          await producer.sendBatch([encoded(hostile)], { partitionId });
          await producer.sendBatch([encoded(valid)], { partitionId });
        }

        const landed = await eventually(
          async () => (await sql()`select 1 from club_data_hit where source_club_id = ${club} and source_record_id = '2'`).length === 1,
          LANDS_WITHIN_MS,
        );
        expect(landed).toBe(true);

        // What the contract makes of the hostile event as the function received it decides whether a row may exist.
        const accepted =
          classifyMessage({
            body: JSON.parse(JSON.stringify(hostile.body)) as unknown,
            properties: hostile.properties,
            sequenceNumber: 0,
            enqueuedAt: null,
            partitionId,
          }).kind === 'change';
        const hostileRows = await sql()`select 1 from club_data_hit where source_club_id = ${club} and source_record_id <> '2'`;
        if (!accepted) expect(hostileRows).toHaveLength(0);

        expect(errorLines().slice(errorsBefore)).toEqual([]);
        expect(logged.some((line) => line.line.includes('event_batch_retry'))).toBe(false);
        expect(unhandled).toEqual([]);

        const [bounds] = await sql()<{ detail: number | null; topic: number | null; admission: number | null; dead: number | null }[]>`
          select (select max(length(detail)) from ingest_contract_reject) as detail,
                 (select max(length(topic)) from ingest_contract_reject) as topic,
                 (select max(pg_column_size(state::text)) from ingest_admission) as admission,
                 (select max(length(detail) + coalesce(length(topic), 0)) from ingest_dead_letter) as dead`;
        expect(bounds!.detail ?? 0).toBeLessThanOrEqual(300);
        expect(bounds!.topic ?? 0).toBeLessThanOrEqual(200);
        expect(bounds!.admission ?? 0).toBeLessThan(150_000);
        expect(bounds!.dead ?? 0).toBeLessThanOrEqual(500);
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
  });
});
