import { randomBytes } from 'node:crypto';
import { EventHubProducerClient } from '@azure/event-hubs';
import { changeEvent, type ChangeEvent, type HitRow, type ShooterRow } from '../../development/ingest/debeziumEvents';
import { sendChangeEvents } from '../../development/ingest/sendChangeEvents';
import { startLocalEventHubs, type LocalEventHubs } from '../../development/local/eventHubs/localEventHubs';
import { INITIAL_ADMISSION } from '../../shared/ingest/admission';
import { DEFAULT_CATCH_UP_RULES } from '../../shared/ingest/catchUp';
import { TableCheckpointStore } from '../../shared/ingest/checkpointStore';
import type { Sql } from '../../shared/db/client';
import { startIngestWorker, workerRunnerIdentity, type IngestWorker, type IngestWorkerOptions } from '../../shared/ingest/worker';
import { createLogger } from '../../shared/log/logger';
import { createTableClient } from '../../shared/storage/tables';

export const HUB = 'club-data';
export const GROUP = 'ingest-worker';
export const BACKFILL_GROUP = 'shooting-club-shooter-backfill';

/** Ownership renewal and expiry in tens of milliseconds, not the SDK's 10 s and 60 s. */
export const FAST_BALANCING = { updateIntervalInMs: 150, partitionOwnershipExpirationIntervalInMs: 1200 };

export const uniqueTag = () => randomBytes(4).toString('hex');

/** A club id of its own for each test: the database is shared by the run's files. */
export const uniqueClub = () => `w${randomBytes(3).toString('hex')}`;

export function startHub(partitionCount = 4): Promise<LocalEventHubs> {
  return startLocalEventHubs({
    port: 0,
    eventHubs: { [HUB]: { partitionCount, consumerGroups: [GROUP, BACKFILL_GROUP, 'fresh-replay'] } },
  });
}

/** A checkpoint table of its own in the run's Azurite. */
export function checkpointStore(tableName = `ckpt${uniqueTag()}`): TableCheckpointStore {
  const connectionString = process.env['AzureWebJobsStorage'] ?? '';
  return new TableCheckpointStore(createTableClient({ kind: 'connectionString', connectionString }, tableName));
}

export async function publish(hub: LocalEventHubs, events: readonly ChangeEvent[]): Promise<void> {
  const producer = new EventHubProducerClient(hub.connectionString(), HUB);
  try {
    await sendChangeEvents(producer, events);
  } finally {
    await producer.close();
  }
}

let lsn = 90_000_000;

/** `count` hit inserts of one club; the value tells events apart (record i gets value (i % 10) + 0.5). */
export function hitEvents(clubId: string, count: number, firstRecord = 1): ChangeEvent[] {
  return Array.from({ length: count }, (_, index) => {
    const record = firstRecord + index;
    const row: HitRow = {
      id: record,
      club_id: clubId,
      shooter_id: 7,
      discipline: 'LG',
      series: 1,
      shot_no: 1 + (record % 10),
      value: (record % 10) + 0.5,
      shot_at: Date.parse('2026-11-20T19:00:00Z') * 1000,
    };
    lsn += 100;
    return changeEvent('hits', clubId, 'c', { after: row }, { lsn, txId: lsn, committedAtMs: Date.parse('2026-11-20T19:00:00Z') });
  });
}

export function shooterEvents(clubId: string, names: readonly string[], op: 'c' | 'u' = 'c'): ChangeEvent[] {
  return names.map((name, index) => {
    const row: ShooterRow = { id: 100 + index, club_id: clubId, display_name: name, birth_year: 1990, deleted: false };
    lsn += 100;
    return changeEvent('shooters', clubId, op, { after: row }, { lsn, txId: lsn, committedAtMs: Date.parse('2026-11-20T19:00:00Z') });
  });
}

export function startTestWorker(
  sql: Sql,
  hub: LocalEventHubs,
  store: TableCheckpointStore,
  overrides: Partial<IngestWorkerOptions> & { name?: string } = {},
): Promise<IngestWorker> {
  const { name, ...rest } = overrides;
  return startIngestWorker({
    sql,
    connection: { kind: 'connectionString', connectionString: hub.connectionString() },
    eventHubName: HUB,
    consumerGroup: GROUP,
    checkpointStore: store,
    apply: {
      runner: workerRunnerIdentity(name ?? `test-${uniqueTag()}`),
      statusEnabled: true,
      thresholds: { rejectingThreshold: 1000, quarantineThreshold: 1000, windowSeconds: 300, driftQuietSeconds: 900 },
      rejectLogMax: 1000,
    },
    log: createLogger({ minLevel: 'error' }),
    maxBatchSize: 10,
    maxWaitTimeInSeconds: 1,
    // Samples are taken by the tests themselves.
    lagSampleIntervalMs: 3_600_000,
    catchUpRules: DEFAULT_CATCH_UP_RULES,
    loadBalancing: FAST_BALANCING,
    ...rest,
  });
}

/** Polls `check` every 50 ms until it holds (the surrounding test's timeout bounds it). */
export async function eventually<T>(check: () => Promise<T | undefined | false>): Promise<T> {
  for (;;) {
    const result = await check();
    if (result !== undefined && result !== false) return result;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function hitValues(sql: Sql, clubId: string): Promise<Map<string, number>> {
  const rows = await sql<{ record: string; value: string }[]>`
    select source_record_id as record, value::text as value from club_data_hit where source_club_id = ${clubId} and deleted_at is null`;
  return new Map(rows.map((row) => [row.record, Number(row.value)]));
}

export async function shooterNames(sql: Sql, clubId: string): Promise<string[]> {
  const rows = await sql<{ name: string }[]>`
    select display_name as name from club_data_shooter where source_club_id = ${clubId} and not deleted order by display_name`;
  return rows.map((row) => row.name);
}

/** Sets the worker kind's admission state to a quarantine of this club's shooters path; returns a restore. */
export async function quarantine(sql: Sql, clubId: string): Promise<() => Promise<void>> {
  const [before]: [{ state: unknown }?] = await sql`select state from ingest_admission where runner_kind = 'worker'`;
  const since = new Date().toISOString();
  const state = {
    ...INITIAL_ADMISSION,
    admissionState: 'quarantined',
    quarantine: {
      since,
      path: `club.${clubId}.shooters|${clubId}|shooters`,
      topic: `club.${clubId}.shooters`,
      clubId,
      entity: 'shooters',
      reason: 'origin_mismatch',
      detail: '5 rejects on this path within 300 s',
    },
  };
  await sql`
    insert into ingest_admission (runner_kind, state) values ('worker', ${sql.json(state as never)})
    on conflict (runner_kind) do update set state = excluded.state`;
  return async () => {
    if (before) await sql`update ingest_admission set state = ${sql.json(before.state as never)} where runner_kind = 'worker'`;
    else await sql`delete from ingest_admission where runner_kind = 'worker'`;
  };
}
