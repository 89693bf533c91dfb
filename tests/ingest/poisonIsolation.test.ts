import { randomBytes } from 'node:crypto';
import type { EventHubHandler } from '@azure/functions';
import { functionDefinitions } from '../../functions/definitions';
import { overrideSettings } from '../../shared/config/settings';
import { getSql } from '../../shared/db/client';
import { deadLetterBlock } from '../../shared/ingest/deadLetterDiagnostics';
import type { DeadLetterEntry, DeadLetterOrigin } from '../../shared/ingest/deadLetterRepository';
import { readIngestHealth } from '../../shared/ingest/health';
import { replayDeadLetters } from '../../shared/ingest/replayDeadLetters';
import { useIngestTablesExclusively } from './exclusive';
import { event, hitBody, hitEvent, invocationFor, TEST_THRESHOLDS, uniqueClub, type LoggedLine, type SentEvent } from './fixtures';
import { whileDatabaseRefuses } from './injectedFailure';

const definition = functionDefinitions.find((candidate) => candidate.name === 'ingest');
if (definition?.kind !== 'eventHub') throw new Error('the ingest function is not registered');
const handler = definition.options.handler as EventHubHandler;
const sql = () => getSql();

async function deliver(events: SentEvent[], sequenceNumbers: number[], logged: LoggedLine[] = []) {
  await handler(
    events.map((item) => item.body),
    invocationFor(events, { sequenceNumbers, logged }),
  );
}

const restores: (() => void)[] = [];

/** Settings for the running test only: the afterEach below removes them. */
function useSettings(values: Record<string, string>) {
  restores.push(overrideSettings(values));
}

useIngestTablesExclusively();

beforeEach(() => {
  useSettings({ SVC_INGEST_STATUS_ENABLED: 'true', WEBSITE_INSTANCE_ID: `test-${randomBytes(4).toString('hex')}` });
});

afterEach(() => {
  for (const restore of restores.splice(0).reverse()) restore();
});

const hitRecords = async (club: string) =>
  (
    await sql()<
      { record: string }[]
    >`select source_record_id as record from club_data_hit where source_club_id = ${club} order by source_record_id::int`
  ).map((row) => row.record);

const deadLetters = (club: string | null = null) => sql()<
  (Pick<DeadLetterEntry, 'reason' | 'replayedAt' | 'lastReplayError'> &
    Omit<DeadLetterOrigin, 'sequenceNumber'> & { sequenceNumber: string | null })[]
>`select reason, sql_state as "sqlState", detail, topic, club_id as "clubId", entity, partition_id as "partitionId",
         sequence_number::text as "sequenceNumber", replayed_at as "replayedAt", last_replay_error as "lastReplayError"
  from ingest_dead_letter where ${club}::text is null or club_id = ${club}::text order by id`;

/** A hit the database refuses (23514) while the trigger is in place: a poison that passes the contract. */
const poisonHit = (club: string, id: number, lsn: number) => {
  const body = hitBody({ id, clubId: club, lsn });
  return event({ ...body, after: { ...(body['after'] as object), discipline: 'poison' } }, { topic: `club.${club}.hits`, clubId: club });
};

/** While it is in place, hits of `club` with discipline 'poison' violate a check (a non-transient error). */
const withRefusal = <T>(club: string, run: () => Promise<T>): Promise<T> =>
  whileDatabaseRefuses(sql(), { table: 'club_data_hit', club, errcode: '23514', poisonOnly: true, updates: true }, run);

describe('poison isolation: no single event stops ingest', () => {
  it('applies the rest of a refused batch and records the refused event as a dead letter counted toward admission', async () => {
    const club = uniqueClub();
    const batch = [1, 2, 3, 4, 5].map((id) => (id === 3 ? poisonHit(club, id, id) : hitEvent({ id, clubId: club, lsn: id })));
    const logged: LoggedLine[] = [];
    await withRefusal(club, () => deliver(batch, [11, 12, 13, 14, 15], logged));

    expect(await hitRecords(club)).toEqual(['1', '2', '4', '5']);
    const [letter, ...more] = await deadLetters(club);
    expect(more).toEqual([]);
    expect(letter).toMatchObject({
      reason: 'apply_failed',
      sqlState: '23514',
      topic: `club.${club}.hits`,
      clubId: club,
      entity: 'hits',
      partitionId: '0',
      sequenceNumber: '13',
      replayedAt: null,
    });
    expect(letter?.detail).toContain('injected refusal of 3');
    const health = await readIngestHealth(sql(), { statusEnabled: true, detail: true });
    expect(health).toMatchObject({ status: 'up', workerState: 'running', lastContractRejectReason: 'apply_failed' });
    expect(logged.map((line) => line.line).join('\n')).toContain('ingest_dead_lettered');
  });

  it('finds several poison events in one batch, also with the status record off', async () => {
    useSettings({ SVC_INGEST_STATUS_ENABLED: 'false' });
    const club = uniqueClub();
    const poison = new Set([2, 7]);
    const batch = Array.from({ length: 9 }, (_, index) =>
      poison.has(index + 1) ? poisonHit(club, index + 1, index + 1) : hitEvent({ id: index + 1, clubId: club, lsn: index + 1 }),
    );
    await withRefusal(club, () => deliver(batch, [21, 22, 23, 24, 25, 26, 27, 28, 29]));

    expect(await hitRecords(club)).toEqual(['1', '3', '4', '5', '6', '8', '9']);
    expect((await deadLetters(club)).map((letter) => letter.sequenceNumber)).toEqual(['22', '27']);
    expect(await sql()`select 1 from ingest_admission`).toHaveLength(0);
  });

  it('still retries the whole batch on a transient error', async () => {
    const club = uniqueClub();
    await expect(
      whileDatabaseRefuses(sql(), { table: 'club_data_hit', club, errcode: '40P01' }, () =>
        deliver([hitEvent({ id: 1, clubId: club, lsn: 1 })], [31]),
      ),
    ).rejects.toMatchObject({ code: '40P01' });
    expect(await deadLetters(club)).toEqual([]);
  });

  it('replays a dead letter once the cause is fixed, and keeps one the database still refuses pending', async () => {
    const club = uniqueClub();
    await withRefusal(club, () => deliver([poisonHit(club, 1, 1), hitEvent({ id: 2, clubId: club, lsn: 2 })], [41, 42]));
    const apply = {
      runner: { id: 'replay:test', kind: 'event' as const },
      statusEnabled: false,
      thresholds: TEST_THRESHOLDS,
      rejectLogMax: 100,
    };

    // Still refused: stays pending, with the error of the attempt.
    await expect(withRefusal(club, () => replayDeadLetters(sql(), { apply, limit: 10 }))).resolves.toEqual({
      replayed: 0,
      failed: 1,
      withoutContent: 0,
    });
    const [pending] = await deadLetters(club);
    expect(pending?.replayedAt).toBeNull();
    expect(pending?.lastReplayError).toContain('injected');
    expect(await hitRecords(club)).toEqual(['2']);

    // Fixed: applied and marked; a second run has nothing left to do.
    await expect(replayDeadLetters(sql(), { apply, limit: 10 })).resolves.toEqual({ replayed: 1, failed: 0, withoutContent: 0 });
    expect(await hitRecords(club)).toEqual(['1', '2']);
    expect(await sql()`select discipline from club_data_hit where source_club_id = ${club} and source_record_id = '1'`).toEqual([
      { discipline: 'poison' },
    ]);
    const [replayed, ...others] = await deadLetters(club);
    expect(others).toEqual([]);
    expect(replayed?.replayedAt).toBeInstanceOf(Date);
    expect(replayed?.lastReplayError).toBeNull();
    await expect(replayDeadLetters(sql(), { apply, limit: 10 })).resolves.toEqual({ replayed: 0, failed: 0, withoutContent: 0 });
    expect((await deadLetterBlock(sql())).pending).toBe(0);
  });

  it('keeps the dead-letter record bounded by count and age', async () => {
    useSettings({ INGEST_DEAD_LETTER_MAX: '10' });
    const club = uniqueClub();
    await sql()`
      insert into ingest_dead_letter (dead_at, runner_id, reason, detail, club_id)
      values (now() - interval '40 days', 'event:old', 'apply_failed', 'old', ${club})`;
    const batch = Array.from({ length: 12 }, (_, index) => poisonHit(club, index + 1, index + 1));
    await withRefusal(club, () =>
      deliver(
        batch,
        batch.map((_, index) => 100 + index),
      ),
    );
    const kept = await deadLetters(club);
    expect(kept.map((letter) => letter.sequenceNumber)).toEqual(['102', '103', '104', '105', '106', '107', '108', '109', '110', '111']);
  });

  it('keeps the reject log bounded by age', async () => {
    useSettings({ INGEST_REJECT_LOG_MAX_AGE_DAYS: '2' });
    const club = uniqueClub();
    await sql()`
      insert into ingest_contract_reject (rejected_at, runner_id, reason, detail, club_id)
      values (now() - interval '3 days', 'event:old', 'body_invalid', 'old', ${club})`;
    await deliver([event(hitBody({ id: 1, clubId: club, lsn: 1 }), { topic: `club.${club}.hits`, clubId: '1' })], [200]);
    const details = await sql()<{ detail: string }[]>`select detail from ingest_contract_reject where club_id = ${club}`;
    expect(details.map((row) => row.detail)).not.toContain('old');
  });
});

describe('the reproductions of the issue leave ingest live with the next event applied', () => {
  const hostile: [string, (club: string) => SentEvent[]][] = [
    ['source.ts_ms 1e16', (club) => [hitEvent({ id: 1, clubId: club, lsn: 1, tsMs: 1e16 })]],
    [
      'source.ts_ms -1e15, newest of its batch',
      (club) => [hitEvent({ id: 1, clubId: club, lsn: 1 }), hitEvent({ id: 2, clubId: club, lsn: 2, tsMs: -1e15 })],
    ],
    [
      'a NUL in the sourceTopic header',
      (club) => [event(hitBody({ id: 1, clubId: club, lsn: 1 }), { topic: `club.${club}.hits\u0000`, clubId: club })],
    ],
    ['a 700,000-character source.table', (club) => [hitEvent({ id: 1, clubId: club, lsn: 1, table: 'x'.repeat(700_000) })]],
  ];

  it.each(hostile.flatMap(([name, build]) => [[name, 'off', build] as const, [name, 'on', build] as const]))(
    '%s (status record %s)',
    async (_name, status, build) => {
      useSettings({ SVC_INGEST_STATUS_ENABLED: status === 'on' ? 'true' : 'false' });
      const club = uniqueClub();
      const events = build(club);
      const before = await hitRecords(club);
      await deliver(
        events,
        events.map((_, index) => 300 + index),
      );
      const next = hitEvent({ id: 99, clubId: club, lsn: 99 });
      await deliver([next], [400]);

      expect(await hitRecords(club)).toEqual(events.length === 2 ? [...before, '1', '99'] : [...before, '99']);
      if (status === 'on') {
        const health = await readIngestHealth(sql(), { statusEnabled: true, detail: true });
        expect(health).toMatchObject({ workerState: 'running' });
        expect(health.status).toBe('up');
      }
    },
  );

  it('stores a 700,000-character value as a few hundred characters and keeps admission state and diagnostics small', async () => {
    const club = uniqueClub();
    // Rejects with distinct, long topics: each path a separate entry of the admission state.
    const many = Array.from({ length: 700 }, (_, index) =>
      event(hitBody({ id: index, clubId: club, lsn: index, table: 'x'.repeat(700_000) }), {
        topic: `club.${club}.hits${'\u0000'.repeat(3)}${index}${'y'.repeat(700_000)}`,
        clubId: club,
      }),
    );
    for (let start = 0; start < many.length; start += 100)
      await deliver(
        many.slice(start, start + 100),
        many.slice(start, start + 100).map((_, index) => 500 + start + index),
      );
    await deliver([hitEvent({ id: 1, clubId: club, lsn: 1, table: 'x'.repeat(700_000) })], [1300]);

    const [longest] = await sql()<{ detail: number; topic: number }[]>`
      select max(length(detail)) as detail, max(length(topic)) as topic from ingest_contract_reject`;
    expect(longest!.detail).toBeLessThanOrEqual(300);
    expect(longest!.topic).toBeLessThanOrEqual(200);
    const [state] = await sql()<{ bytes: number }[]>`select pg_column_size(state::text) as bytes from ingest_admission`;
    expect(state!.bytes).toBeLessThan(150_000);
    const summary = JSON.stringify({
      ingest: await readIngestHealth(sql(), { statusEnabled: true, detail: true }),
      deadLetters: await deadLetterBlock(sql()),
    });
    expect(summary.length).toBeLessThan(50_000);
    expect(await readIngestHealth(sql(), { statusEnabled: true, detail: true })).toMatchObject({ workerState: 'running' });
  });
});
