import { randomBytes } from 'node:crypto';
import { EventHubProducerClient } from '@azure/event-hubs';
import type { InvocationContext } from '@azure/functions';
import type { DevHost } from '../../development/devhost/host';
import { changeEvent, trainingEvening, type ChangeEvent, type HitRow } from '../../development/ingest/debeziumEvents';
import { sendChangeEvents } from '../../development/ingest/sendChangeEvents';
import { startLocalEventHubs, type LocalEventHubs } from '../../development/local/eventHubs/localEventHubs';
import { overrideSettings } from '../../shared/config/settings';
import { getSql } from '../../shared/db/client';
import type { FunctionDefinition } from '../../shared/host/definition';
import { bearer } from '../support/tokens';
import { useIngestTablesExclusively } from './exclusive';
import { startFeedHost, withIngestHandler } from './feedHost';
import { uniqueClub } from './fixtures';

// Real sockets, SDK link set-up and two full deliveries take a while on a busy machine.
jest.setTimeout(90_000);

const HUB = 'club-data';
const sql = () => getSql();

/**
 * The app's definitions with the real `ingest` handler counting the messages it has finished with,
 * so a test knows when a replay has gone all the way through (the status record's progress writes
 * are throttled and cannot say so).
 */
function definitionsCounting(finished: { messages: number }): FunctionDefinition[] {
  return withIngestHandler((ingestHandler) => async (messages: unknown, context: InvocationContext) => {
    await ingestHandler(messages, context);
    finished.messages += (messages as unknown[]).length;
  });
}

/** Polls until `condition` holds, failing with `what` after the deadline. */
async function eventually(what: string, condition: () => Promise<boolean> | boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const hitRows = (club: string) => sql()<
  {
    record: string;
    shooter: string | null;
    value: string | null;
    shotAt: Date | null;
    deletedAt: Date | null;
    lsn: number;
    updatedAt: Date;
  }[]
>`
  select source_record_id as record, shooter_id as shooter, value, shot_at as "shotAt", deleted_at as "deletedAt",
         source_lsn as lsn, updated_at as "updatedAt"
  from club_data_hit where source_club_id = ${club} order by source_record_id`;

const shooterRows = (club: string) => sql()<{ record: string; name: string | null; deleted: boolean; lsn: number; updatedAt: Date }[]>`
  select source_record_id as record, display_name as name, deleted, source_lsn as lsn, updated_at as "updatedAt"
  from club_data_shooter where source_club_id = ${club} order by source_record_id`;

const rejects = () => sql()<{ topic: string; clubId: string; entity: string; reason: string }[]>`
  select topic, club_id as "clubId", entity, reason from ingest_contract_reject order by id`;

describe('ingest end to end: producer → local hub → local host feed → ingest → PostgreSQL', () => {
  useIngestTablesExclusively();

  const club = uniqueClub();
  const instance = `e2e-${randomBytes(4).toString('hex')}`;
  const logged: { level: string; line: string }[] = [];
  let hub: LocalEventHubs;
  let producer: EventHubProducerClient;
  let host: DevHost | undefined;
  const finished = { messages: 0 };
  const restores: (() => void)[] = [];

  async function startFeed(consumerGroup: string): Promise<DevHost> {
    restores.push(overrideSettings({ INGEST_EVENTHUB_CONSUMER_GROUP: consumerGroup }));
    const started = await startFeedHost(definitionsCounting(finished), logged);
    expect(started.eventHubFeeds).toEqual([`ingest <- ${HUB} (${consumerGroup})`]);
    return started;
  }

  beforeAll(async () => {
    hub = await startLocalEventHubs({ port: 0, eventHubs: { [HUB]: { partitionCount: 2, consumerGroups: ['ingest', 'replay'] } } });
    restores.push(
      overrideSettings({
        SVC_INGEST_STATUS_ENABLED: 'true',
        WEBSITE_INSTANCE_ID: instance,
        INGEST_EVENTHUB_CONNECTION: hub.connectionString(),
        INGEST_EVENTHUB_NAME: HUB,
      }),
    );
    producer = new EventHubProducerClient(hub.connectionString(), HUB);
  });

  afterAll(async () => {
    await host?.close();
    await producer?.close();
    await hub?.close();
    for (const restore of restores.splice(0).reverse()) restore();
  });

  it('applies a training evening with one contract reject, reports it in health, and a replay changes nothing', async () => {
    const evening = trainingEvening({ clubId: club, startsAt: new Date('2026-11-20T18:30:00Z'), shooters: 4, seed: 7, tombstones: true });
    const hitCreates = evening.filter((change) => change.entity === 'hits' && change.body?.op === 'c');
    const update = evening.find((change) => change.body?.op === 'u');
    const deletion = evening.find((change) => change.body?.op === 'd');
    const corrected = update?.body?.after as HitRow | undefined;
    const removedId = String((deletion?.body?.before as HitRow | undefined)?.id);
    if (!corrected || !deletion) throw new Error('the evening has a corrected and a deleted hit');

    // Among the hits, one whose header names another club than its topic: a contract reject.
    const stray = hitCreates[5]!.body!.after as HitRow;
    const outsider = `${club}1`;
    const rejected: ChangeEvent = {
      ...changeEvent(
        'hits',
        club,
        'c',
        { after: { ...stray, id: 990_001 } },
        { lsn: 1, txId: 1, committedAtMs: Date.parse('2026-11-20T19:00:00Z') },
      ),
      clubId: outsider,
    };
    const events = [...evening.slice(0, evening.indexOf(hitCreates[6]!)), rejected, ...evening.slice(evening.indexOf(hitCreates[6]!))];
    await sendChangeEvents(producer, events, { headersAsBytes: true });
    // The worker drops empty bodies (the tombstone after the delete) before the function sees them.
    const delivered = events.filter((change) => change.body !== null).length;
    expect(delivered).toBe(events.length - 1);

    host = await startFeed('ingest');
    await eventually('the first delivery', () => finished.messages >= delivered);

    const hits = await hitRows(club);
    expect(hits).toHaveLength(hitCreates.length);
    expect(hits.map((row) => row.record)).not.toContain('990001');
    expect(hits.find((row) => row.record === String(corrected.id))?.value).toBe(corrected.value.toFixed(1));
    expect(hits.filter((row) => row.deletedAt !== null).map((row) => row.record)).toEqual([removedId]);
    const shooters = await shooterRows(club);
    expect(shooters.map((row) => row.record)).toEqual(['1001', '1002', '1003', '1004']);
    expect(shooters.every((row) => !row.deleted && row.name)).toBe(true);

    expect(await rejects()).toEqual([{ topic: `club.${club}.hits`, clubId: club, entity: 'hits', reason: 'club_scope_mismatch' }]);
    const [status]: [{ runnerKind: string; workerState: string; lastProcessedAt: Date | null; lastErrorMessage: string | null }?] =
      await sql()`select runner_kind as "runnerKind", worker_state as "workerState", last_processed_at as "lastProcessedAt",
                         last_error_message as "lastErrorMessage"
                  from ingest_runner_status where runner_id = ${`event:${instance}`}`;
    expect(status).toMatchObject({ runnerKind: 'event', workerState: 'running', lastErrorMessage: null });
    expect(status?.lastProcessedAt).toBeInstanceOf(Date);

    const anonymous = await fetch(`${host.url}/healthz/ingest`);
    expect(anonymous.status).toBe(200);
    expect(await anonymous.json()).not.toHaveProperty('lastContractRejectReason');
    const admin = await fetch(`${host.url}/healthz/ingest`, { headers: await bearer('admin-1', { roles: ['platform_admin'] }) });
    expect(admin.status).toBe(200);
    expect(await admin.json()).toMatchObject({
      status: 'up',
      runnerKind: 'event',
      catchUpState: 'live',
      lastContractRejectReason: 'club_scope_mismatch',
      lastContractRejectTopic: `club.${club}.hits`,
      lastContractRejectEntity: 'hits',
      recentRejects: [expect.objectContaining({ clubId: club, reason: 'club_scope_mismatch' })],
    });

    // Redelivery: a second consumer group reads the same events from offset 0 through a new feed.
    await host.close();
    host = undefined;
    const before = { hits, shooters };
    finished.messages = 0;
    host = await startFeed('replay');
    await eventually('the replay', () => finished.messages >= delivered);

    expect({ hits: await hitRows(club), shooters: await shooterRows(club) }).toEqual(before);
    // The replayed reject is recorded again, with the same reason; nothing else is.
    expect((await rejects()).map((row) => row.reason)).toEqual(['club_scope_mismatch', 'club_scope_mismatch']);
    expect(logged.filter((entry) => entry.level === 'error')).toEqual([]);
  });
});
