import { randomBytes } from 'node:crypto';
import type { EventHubHandler } from '@azure/functions';
import { functionDefinitions } from '../../functions/definitions';
import { overrideSettings, withSettings } from '../../shared/config/settings';
import { getSql } from '../../shared/db/client';
import { readIngestHealth } from '../../shared/ingest/health';
import { useIngestTablesExclusively } from './exclusive';
import { event, hitBody, hitEvent, invocationFor, shooterBody, uniqueClub, type LoggedLine, type SentEvent } from './fixtures';
import { whileDatabaseRefuses } from './injectedFailure';

const definition = functionDefinitions.find((candidate) => candidate.name === 'ingest');
if (definition?.kind !== 'eventHub') throw new Error('the ingest function is not registered');
const handler = definition.options.handler as EventHubHandler;

/** Delivers a batch the way the Azure host does: bodies plus trigger metadata on the context. */
async function deliver(events: SentEvent[], options: { sequenceNumbers?: number[]; retryCount?: number; logged?: LoggedLine[] } = {}) {
  await handler(
    events.map((item) => item.body),
    invocationFor(events, options),
  );
}

const sql = () => getSql();
let runnerId = '';

useIngestTablesExclusively();

let restoreSettings = () => {};

beforeEach(() => {
  const instance = `test-${randomBytes(4).toString('hex')}`;
  runnerId = `event:${instance}`;
  restoreSettings = overrideSettings({ SVC_INGEST_STATUS_ENABLED: 'true', WEBSITE_INSTANCE_ID: instance });
});

afterEach(() => restoreSettings());

interface HitState {
  record: string;
  shooter: string | null;
  series: number | null;
  shotNo: number | null;
  value: string | null;
  shotAt: Date | null;
  deleted: boolean;
  lsn: number;
}

const hitState = (club: string) => sql()<HitState[]>`
  select source_record_id as record, shooter_id as shooter, series, shot_no as "shotNo", value, shot_at as "shotAt",
         deleted_at is not null as deleted, source_lsn as lsn
  from club_data_hit where source_club_id = ${club} order by source_record_id`;

const shooterState = (club: string) => sql()`
  select source_record_id as record, display_name as name, birth_year as "birthYear", deleted, source_lsn as lsn
  from club_data_shooter where source_club_id = ${club} order by source_record_id`;

const statusRow = async () => {
  const [row]: [
    {
      runnerKind: string;
      workerState: string;
      lastProcessedAt: Date | null;
      lastSourceEventAt: Date | null;
      lastErrorMessage: string | null;
    }?,
  ] = await sql()`select runner_kind as "runnerKind", worker_state as "workerState", last_processed_at as "lastProcessedAt",
                       last_source_event_at as "lastSourceEventAt", last_error_message as "lastErrorMessage"
                from ingest_runner_status where runner_id = ${runnerId}`;
  return row;
};

const rejectLog = (club: string) => sql()`
  select topic, club_id as "clubId", entity, reason, sequence_number as "sequenceNumber", partition_id as "partitionId"
  from ingest_contract_reject where runner_id = ${runnerId} and (club_id = ${club} or club_id is null) order by id`;

describe('the ingest function (Event Hubs trigger, cardinality many)', () => {
  it('is registered as docs/ingest.md describes it: cardinality many, hub, connection, consumer group, retry', () => {
    expect(definition.options).toMatchObject({
      eventHubName: '%INGEST_EVENTHUB_NAME%',
      connection: 'INGEST_EVENTHUB_CONNECTION',
      consumerGroup: '%INGEST_EVENTHUB_CONSUMER_GROUP%',
      cardinality: 'many',
      retry: { strategy: 'exponentialBackoff', maxRetryCount: -1 },
    });
  });

  it('applies hits and shooters with origin headers as bytes and writes the status record', async () => {
    const club = uniqueClub();
    await deliver([
      event(shooterBody({ id: 17, clubId: club, lsn: 100 }), { topic: `club.${club}.shooters`, clubId: club }, 'bytes'),
      hitEvent({ id: 1, clubId: club, lsn: 101, value: 10.4, tsMs: 1_763_665_201_500 }, 'bytes'),
      hitEvent({ id: 2, clubId: club, lsn: 102, value: 9.7 }, 'base64'),
      // Bodies also come as JSON text and as bytes.
      { ...hitEvent({ id: 3, clubId: club, lsn: 103 }), body: JSON.stringify(hitBody({ id: 3, clubId: club, lsn: 103, value: 8.2 })) },
      {
        ...hitEvent({ id: 4, clubId: club, lsn: 104 }),
        body: Buffer.from(JSON.stringify(hitBody({ id: 4, clubId: club, lsn: 104, value: 0 }))),
      },
      // The tombstone after a delete: skipped, not rejected.
      event(null, { topic: `club.${club}.hits`, clubId: club }, 'bytes'),
    ]);
    expect(await hitState(club)).toEqual([
      {
        record: '1',
        shooter: '17',
        series: 1,
        shotNo: 1,
        value: '10.4',
        shotAt: new Date('2025-11-20T19:00:01.123Z'),
        deleted: false,
        lsn: 101,
      },
      {
        record: '2',
        shooter: '17',
        series: 1,
        shotNo: 1,
        value: '9.7',
        shotAt: new Date('2025-11-20T19:00:01.123Z'),
        deleted: false,
        lsn: 102,
      },
      expect.objectContaining({ record: '3', value: '8.2', deleted: false, lsn: 103 }),
      expect.objectContaining({ record: '4', value: '0.0', deleted: false, lsn: 104 }),
    ]);
    expect(await shooterState(club)).toEqual([{ record: '17', name: 'Anna K.', birthYear: 1988, deleted: false, lsn: 100 }]);
    expect(await statusRow()).toMatchObject({
      runnerKind: 'event',
      workerState: 'running',
      lastSourceEventAt: new Date(1_763_665_201_500),
      lastErrorMessage: null,
    });
    expect(await rejectLog(club)).toEqual([]);
  });

  it('drops each contract reject, logs it with its reason, and applies the good events around it', async () => {
    const club = uniqueClub();
    const other = uniqueClub();
    const good = (id: number) => hitEvent({ id, clubId: club, lsn: 200 + id });
    const batch = [
      good(1),
      event(hitBody({ id: 90, clubId: club, lsn: 1 }), { clubId: club }),
      event(hitBody({ id: 91, clubId: club, lsn: 1 }), { topic: `club.${club}.lanes`, clubId: club }),
      event(hitBody({ id: 92, clubId: club, lsn: 1 }), { topic: `club.${club}.hits`, clubId: other }),
      event('{"op":"c",', { topic: `club.${club}.hits`, clubId: club }),
      event(hitBody({ id: 93, clubId: club, lsn: 1, table: 'shooters' }), { topic: `club.${club}.hits`, clubId: club }),
      event(hitBody({ id: 94, clubId: other, lsn: 1 }), { topic: `club.${club}.hits`, clubId: club }),
      good(2),
    ];
    const logged: LoggedLine[] = [];
    await deliver(batch, { sequenceNumbers: [11, 12, 13, 14, 15, 16, 17, 18], logged });
    expect((await hitState(club)).map((row) => row.record)).toEqual(['1', '2']);
    expect(await rejectLog(club)).toEqual([
      { topic: null, clubId: null, entity: null, reason: 'topic_malformed', sequenceNumber: 12, partitionId: '0' },
      { topic: `club.${club}.lanes`, clubId: club, entity: 'lanes', reason: 'entity_unknown', sequenceNumber: 13, partitionId: '0' },
      { topic: `club.${club}.hits`, clubId: club, entity: 'hits', reason: 'club_scope_mismatch', sequenceNumber: 14, partitionId: '0' },
      { topic: `club.${club}.hits`, clubId: club, entity: 'hits', reason: 'body_invalid', sequenceNumber: 15, partitionId: '0' },
      { topic: `club.${club}.hits`, clubId: club, entity: 'hits', reason: 'topic_entity_mismatch', sequenceNumber: 16, partitionId: '0' },
      { topic: `club.${club}.hits`, clubId: club, entity: 'hits', reason: 'origin_mismatch', sequenceNumber: 17, partitionId: '0' },
    ]);
    // Rejects are a warning for the batch, never a failure.
    expect(logged.filter((line) => line.level === 'error')).toEqual([]);
    expect(logged.some((line) => line.level === 'warning' && line.line.includes('ingest_contract_rejects'))).toBe(true);
    // Six fresh rejects make admission rejecting; the good event after them on the hits path
    // clears that path's four (and its drift), the two other faulty paths keep it rejecting.
    expect(await readIngestHealth(sql(), { statusEnabled: true, detail: true })).toMatchObject({
      admissionState: 'rejecting',
      rejectBurstCount: 2,
      sourceDriftState: 'recovered',
      lastContractRejectReason: 'origin_mismatch',
      lastContractRejectTopic: `club.${club}.hits`,
      quarantineTopic: null,
    });
  });

  it('keeps the reject log bounded to the newest INGEST_REJECT_LOG_MAX rows', async () => {
    await withSettings({ INGEST_REJECT_LOG_MAX: '10' }, async () => {
      const club = uniqueClub();
      const bad = Array.from({ length: 15 }, () => event('not json', { topic: `club.${club}.hits`, clubId: club }));
      await deliver(bad.slice(0, 8), { sequenceNumbers: [1, 2, 3, 4, 5, 6, 7, 8] });
      await deliver(bad.slice(8), { sequenceNumbers: [9, 10, 11, 12, 13, 14, 15] });
      const rows = await sql()<
        { sequenceNumber: number }[]
      >`select sequence_number as "sequenceNumber" from ingest_contract_reject order by id`;
      expect(rows.map((row) => row.sequenceNumber)).toEqual([6, 7, 8, 9, 10, 11, 12, 13, 14, 15]);
    });
  });

  describe('a history of changes', () => {
    const history = (club: string): SentEvent[] => [
      event(shooterBody({ id: 5, clubId: club, lsn: 10, name: 'Ben' }), { topic: `club.${club}.shooters`, clubId: club }),
      hitEvent({ id: 1, clubId: club, lsn: 11, value: 8.1 }),
      hitEvent({ id: 2, clubId: club, lsn: 12, value: 9.2 }),
      hitEvent({ id: 1, clubId: club, lsn: 13, op: 'u', value: 10.3 }),
      event(shooterBody({ id: 5, clubId: club, lsn: 14, op: 'u', name: 'Ben R.' }), { topic: `club.${club}.shooters`, clubId: club }),
      hitEvent({ id: 2, clubId: club, lsn: 15, op: 'd' }),
      hitEvent({ id: 3, clubId: club, lsn: 16, value: 7.5 }),
      event(shooterBody({ id: 6, clubId: club, lsn: 17, name: 'Cara' }), { topic: `club.${club}.shooters`, clubId: club }),
      event(shooterBody({ id: 6, clubId: club, lsn: 18, op: 'd' }), { topic: `club.${club}.shooters`, clubId: club }),
    ];
    /** A club that received the history one event at a time, in order. */
    async function deliveredInOrder(): Promise<string> {
      const club = uniqueClub();
      for (const item of history(club)) await deliver([item]);
      return club;
    }

    it('delivered in order ends in its latest state, deletes kept as marks', async () => {
      const inOrder = await deliveredInOrder();
      expect(await hitState(inOrder)).toEqual([
        expect.objectContaining({ record: '1', value: '10.3', deleted: false, lsn: 13 }),
        // Soft-deleted: the last known values stay, the row is marked.
        expect.objectContaining({ record: '2', value: '9.2', deleted: true, lsn: 15 }),
        expect.objectContaining({ record: '3', value: '7.5', deleted: false, lsn: 16 }),
      ]);
      expect(await shooterState(inOrder)).toEqual([
        { record: '5', name: 'Ben R.', birthYear: 1988, deleted: false, lsn: 14 },
        { record: '6', name: 'Cara', birthYear: 1988, deleted: true, lsn: 18 },
      ]);
    });

    it('gives identical state redelivered, duplicated and out of order', async () => {
      const inOrder = await deliveredInOrder();
      const shuffled = uniqueClub();
      const events = history(shuffled);
      // Newest first, one batch; then the whole history again in two overlapping batches (redelivery).
      await deliver([...events].reverse());
      await deliver([events[3], events[0], events[5], events[1]] as SentEvent[]);
      await deliver([...events, ...events]);

      expect(await hitState(shuffled)).toEqual(await hitState(inOrder));
      expect(await shooterState(shuffled)).toEqual(await shooterState(inOrder));
    });
  });

  it('keeps a delete that arrives before its create deleted, and takes the older create values', async () => {
    const club = uniqueClub();
    await deliver([hitEvent({ id: 7, clubId: club, lsn: 30, op: 'd' })]);
    await deliver([hitEvent({ id: 7, clubId: club, lsn: 20, value: 9.9 })]);
    expect(await hitState(club)).toEqual([expect.objectContaining({ record: '7', deleted: true, lsn: 30, value: '9.9' })]);
  });

  it('with the status switch off applies data but writes no status record and no reject log', async () => {
    await withSettings({ SVC_INGEST_STATUS_ENABLED: 'false' }, async () => {
      const club = uniqueClub();
      await deliver([hitEvent({ id: 1, clubId: club, lsn: 1 }), event('not json', { topic: `club.${club}.hits`, clubId: club })]);
      expect((await hitState(club)).map((row) => row.record)).toEqual(['1']);
      expect(await statusRow()).toBeUndefined();
      expect(await sql()`select 1 from ingest_contract_reject where club_id = ${club}`).toHaveLength(0);
      expect(await readIngestHealth(sql(), { statusEnabled: false, detail: true })).toMatchObject({
        status: 'unknown',
        admissionState: null,
      });
    });
  });

  it('leaves nothing half-applied when the database fails mid-batch, and applies the batch on retry', async () => {
    const club = uniqueClub();
    const batch = [
      hitEvent({ id: 1, clubId: club, lsn: 1 }),
      hitEvent({ id: 2, clubId: club, lsn: 2 }),
      event(shooterBody({ id: 5, clubId: club, lsn: 3 }), { topic: `club.${club}.shooters`, clubId: club }),
    ];
    const logged: LoggedLine[] = [];
    // A failure inside the transaction after the hits were written: the shooters statement fails
    // with a serialization failure, as a concurrent transaction could make it.
    await whileDatabaseRefuses(sql(), { table: 'club_data_shooter', club, errcode: '40001' }, async () => {
      await expect(deliver(batch, { sequenceNumbers: [1, 2, 3], logged })).rejects.toMatchObject({ code: '40001' });
      expect(await hitState(club)).toEqual([]);
      expect(await statusRow()).toMatchObject({ workerState: 'retrying', lastErrorMessage: 'PostgresError: injected' });
      expect(logged.filter((line) => line.level === 'error').map((line) => JSON.parse(line.line) as { event: string })).toEqual([
        expect.objectContaining({ event: 'event_batch_failed' }),
      ]);
    });
    // The retry policy reruns the same batch (same sequence numbers).
    await deliver(batch, { sequenceNumbers: [1, 2, 3], retryCount: 1 });
    expect((await hitState(club)).map((row) => row.record)).toEqual(['1', '2']);
    expect(await shooterState(club)).toHaveLength(1);
    expect(await statusRow()).toMatchObject({ workerState: 'running', lastErrorMessage: null });
  });
});
