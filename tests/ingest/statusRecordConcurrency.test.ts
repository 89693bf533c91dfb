import { randomUUID } from 'node:crypto';
import { getSql, type Sql } from '../../shared/db/client';
import { applyIngestBatch, type ApplyOptions } from '../../shared/ingest/apply';
import { recordProgressThrottled, type RunnerIdentity } from '../../shared/ingest/statusRepository';
import { useIngestTablesExclusively } from './exclusive';
import { hitEvent, incoming, uniqueClub, TEST_THRESHOLDS } from './fixtures';

/*
 * The event function runs one batch per partition at once, all writing progress to their
 * instance's one status row. Within the 30 s throttle a batch must not touch that row, or every
 * partition's batch queues behind the others' commits (docs/benchmarks.md, "Federation run").
 */

const sql = () => getSql();
const t0 = new Date('2026-11-20T19:00:00Z');
const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000);

const runnerOf = (): RunnerIdentity => ({ id: `event:concurrency-${randomUUID()}`, kind: 'event' });

function options(runner: RunnerIdentity, seconds: number): ApplyOptions {
  return { runner, statusEnabled: true, thresholds: TEST_THRESHOLDS, rejectLogMax: 1000, now: () => at(seconds) };
}

const applyAt = (runner: RunnerIdentity, club: string, id: number, seconds: number) =>
  applyIngestBatch(sql(), incoming([hitEvent({ id, clubId: club, lsn: id, tsMs: at(seconds).getTime() })]), options(runner, seconds));

const lastProcessed = async (runner: RunnerIdentity) => {
  const [row]: [{ lastProcessedAt: Date }?] =
    await sql()`select last_processed_at as "lastProcessedAt" from ingest_runner_status where runner_id = ${runner.id}`;
  return row?.lastProcessedAt;
};

/** Resolves with the promise's value, or with 'waiting' when it has not settled within `ms`. */
const within = <T>(promise: Promise<T>, ms: number): Promise<T | 'waiting'> =>
  Promise.race([promise, new Promise<'waiting'>((resolve) => setTimeout(() => resolve('waiting'), ms))]);

/** Runs the apply's progress write in a transaction that stays open until `release` is called. */
function holdOpen(db: Sql, runner: RunnerIdentity, seconds: number) {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  let wrote: (written: boolean) => void = () => {};
  const written = new Promise<boolean>((resolve) => (wrote = resolve));
  const done = db.begin(async (tx) => {
    wrote(await recordProgressThrottled(tx, runner, at(seconds), at(seconds)));
    await released;
  });
  return { written, release, done };
}

/** Sessions of this database waiting for a lock on the status table or one of its rows. */
const waitingOnStatus = async () => {
  const rows = await sql()`
    select 1 from pg_locks l join pg_class c on c.oid = l.relation
    where not l.granted and l.database = (select oid from pg_database where datname = current_database())
      and c.relname = 'ingest_runner_status'
    union all
    select 1 from pg_stat_activity a
    where a.datname = current_database() and a.wait_event_type = 'Lock' and a.query like '%ingest_runner_status%'`;
  return rows.length;
};

useIngestTablesExclusively();

describe('the status record under concurrent batches', () => {
  it('lets a batch within the throttle window complete while another batch of the same runner is still open', async () => {
    const runner = runnerOf();
    const club = uniqueClub();
    expect((await applyAt(runner, club, 1, 0)).statusWritten).toBe(true);

    const first = holdOpen(sql(), runner, 10);
    try {
      expect(await first.written).toBe(false);
      const second = await within(applyAt(runner, club, 2, 20), 5_000);
      expect(second).not.toBe('waiting');
      expect(second).toMatchObject({ hits: 1, statusWritten: false });
      expect(await waitingOnStatus()).toBe(0);
    } finally {
      first.release();
      await first.done;
    }
    expect(await lastProcessed(runner)).toEqual(at(0));
    expect(await sql()`select 1 from club_data_hit where source_club_id = ${club}`).toHaveLength(2);
  });

  it('still advances the record once the window has passed, without waiting for an open batch that wrote nothing', async () => {
    const runner = runnerOf();
    const club = uniqueClub();
    await applyAt(runner, club, 1, 0);

    const first = holdOpen(sql(), runner, 20);
    try {
      expect(await first.written).toBe(false);
      const second = await within(applyAt(runner, club, 2, 30), 5_000);
      expect(second).toMatchObject({ hits: 1, statusWritten: true });
    } finally {
      first.release();
      await first.done;
    }
    expect(await lastProcessed(runner)).toEqual(at(30));
    const [row]: [{ source: Date }?] =
      await sql()`select last_source_event_at as source from ingest_runner_status where runner_id = ${runner.id}`;
    expect(row?.source).toEqual(at(30));
  });

  it('writes once when two batches pass the window together: the later one finds the record fresh after the first commits', async () => {
    const runner = runnerOf();
    const club = uniqueClub();
    await applyAt(runner, club, 1, 0);

    const first = holdOpen(sql(), runner, 30);
    let second: ReturnType<typeof applyAt> | undefined;
    try {
      expect(await first.written).toBe(true);
      second = applyAt(runner, club, 2, 31);
      // This one needs the row the open batch wrote: it waits, as it must, once per window.
      expect(await within(second, 500)).toBe('waiting');
    } finally {
      first.release();
      await first.done;
    }
    expect(await second).toMatchObject({ hits: 1, statusWritten: false });
    expect(await lastProcessed(runner)).toEqual(at(30));
  });

  it('creates the record of a runner that has none with its first batch', async () => {
    const runner = runnerOf();
    expect(await lastProcessed(runner)).toBeUndefined();
    expect((await applyAt(runner, uniqueClub(), 1, 5)).statusWritten).toBe(true);
    const [row] = await sql()`
      select runner_kind, worker_state, heartbeat_at, last_processed_at, last_source_event_at
      from ingest_runner_status where runner_id = ${runner.id}`;
    expect(row).toEqual({
      runner_kind: 'event',
      worker_state: 'running',
      heartbeat_at: at(5),
      last_processed_at: at(5),
      last_source_event_at: at(5),
    });
  });
});
