import { getSql } from '../../shared/db/client';
import { applyIngestBatch, type ApplyOptions } from '../../shared/ingest/apply';
import { runHeartbeat } from '../../shared/ingest/eventRunner';
import { publicIngestHealth, readIngestHealth, DETAIL_FIELDS } from '../../shared/ingest/health';
import { ingestCheck } from '../../shared/ingest/healthCheck';
import { useIngestTablesExclusively } from './exclusive';
import { event, hitBody, hitEvent, incoming, uniqueClub, type SentEvent, TEST_THRESHOLDS } from './fixtures';

const sql = () => getSql();
const t0 = new Date('2026-11-20T19:00:00Z');
const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000);

/** The core with a clock: every runner (function, worker, backfill) calls it like this. */
function options(seconds: number, runnerId = 'event:status-test'): ApplyOptions {
  return {
    runner: { id: runnerId, kind: 'event' },
    statusEnabled: true,
    thresholds: TEST_THRESHOLDS,
    rejectLogMax: 1000,
    now: () => at(seconds),
  };
}

const apply = (events: SentEvent[], seconds: number) => applyIngestBatch(sql(), incoming(events), options(seconds));
const health = (seconds: number, detail = true) => readIngestHealth(sql(), { statusEnabled: true, detail, now: at(seconds) });

const lastProcessed = async () => {
  const [row]: [{ lastProcessedAt: Date }?] =
    await sql()`select last_processed_at as "lastProcessedAt" from ingest_runner_status where runner_id = 'event:status-test'`;
  return row?.lastProcessedAt;
};

useIngestTablesExclusively();

describe('the ingest status record', () => {
  it('throttles lastProcessedAt and lastSourceEventAt writes to one per 30 s', async () => {
    const club = uniqueClub();
    expect((await apply([hitEvent({ id: 1, clubId: club, lsn: 1, tsMs: 1_000 })], 0)).statusWritten).toBe(true);
    expect((await apply([hitEvent({ id: 2, clubId: club, lsn: 2, tsMs: 2_000 })], 10)).statusWritten).toBe(false);
    expect((await apply([hitEvent({ id: 3, clubId: club, lsn: 3, tsMs: 3_000 })], 29)).statusWritten).toBe(false);
    expect(await lastProcessed()).toEqual(at(0));
    expect((await health(29)).lastSourceEventAt).toBe(new Date(1_000).toISOString());
    // The data itself is never throttled.
    expect(await sql()`select 1 from club_data_hit where source_club_id = ${club}`).toHaveLength(3);
    expect((await apply([hitEvent({ id: 4, clubId: club, lsn: 4, tsMs: 4_000 })], 30)).statusWritten).toBe(true);
    expect(await lastProcessed()).toEqual(at(30));
    expect((await health(30)).lastSourceEventAt).toBe(new Date(4_000).toISOString());
  });

  it('is up with a fresh heartbeat, down once the heartbeat is older than 3 minutes', async () => {
    await runHeartbeat(sql(), options(0));
    expect(await health(180)).toMatchObject({
      status: 'up',
      workerState: 'running',
      runnerKind: 'event',
      catchUpState: 'live',
      heartbeatAt: at(0).toISOString(),
      totalLag: null,
    });
    expect(await health(181)).toMatchObject({ status: 'down', statusReason: `no heartbeat since ${at(0).toISOString()}` });
    await runHeartbeat(sql(), options(120));
    expect((await health(181)).status).toBe('up');
  });

  it('answers unknown while the switch is off and down when the switch is on but nothing was written', async () => {
    expect(await readIngestHealth(sql(), { statusEnabled: false, detail: true })).toMatchObject({ status: 'unknown', runnerCount: 0 });
    expect(await health(0)).toMatchObject({ status: 'down', runnerCount: 0 });
  });

  it('reads only the runner that runs here: a stray event heartbeat does not hide the worker on staging', async () => {
    const worker: ApplyOptions = { ...options(0, 'worker:staging-1'), runner: { id: 'worker:staging-1', kind: 'worker' } };
    await runHeartbeat(sql(), worker);
    // A function heartbeat written later (the timer that should not run where the worker runs).
    await runHeartbeat(sql(), options(60));
    const staging = await readIngestHealth(sql(), { statusEnabled: true, runnerKind: 'worker', detail: true, now: at(90) });
    expect(staging).toMatchObject({ status: 'up', runnerKind: 'worker', heartbeatAt: at(0).toISOString(), runnerCount: 1 });
    const production = await readIngestHealth(sql(), { statusEnabled: true, runnerKind: 'event', detail: true, now: at(90) });
    expect(production).toMatchObject({ status: 'up', runnerKind: 'event', catchUpState: 'live', heartbeatAt: at(60).toISOString() });
  });

  it('on /healthz, where the worker ingests: unknown while none runs (the app is not down for it), up while one does', async () => {
    const check = ingestCheck(sql, () => ({ statusEnabled: true, runnerKind: 'worker' }));
    // Only rows of an earlier clock: no worker has written within the last 3 minutes.
    await runHeartbeat(sql(), { ...options(0, 'worker:staging-old'), runner: { id: 'worker:staging-old', kind: 'worker' } });
    expect(await check.check()).toMatchObject({ status: 'unknown', runnerCount: 0 });
    await runHeartbeat(sql(), {
      ...options(0, 'worker:staging-1'),
      runner: { id: 'worker:staging-1', kind: 'worker' },
      now: () => new Date(),
    });
    expect(await check.check()).toMatchObject({ status: 'up', runnerKind: 'worker', runnerCount: 1 });
  });

  it('walks rejecting, quarantine, recovery and drift, and shows the context to admins only', async () => {
    const club = uniqueClub();
    const bad = (lsn: number) => event(hitBody({ id: 1, clubId: club, lsn }), { topic: `club.${club}.hits`, clubId: '1' });
    const other = uniqueClub();
    await runHeartbeat(sql(), options(0));

    // Row 2: one reject is recorded; a second fresh one makes admission rejecting.
    await apply([bad(1), hitEvent({ id: 1, clubId: other, lsn: 1 })], 10);
    expect(await health(10)).toMatchObject({
      admissionState: 'none',
      sourceDriftState: 'suspected',
      rejectBurstCount: 1,
      lastContractRejectReason: 'club_scope_mismatch',
    });
    await apply([bad(2)], 20);
    expect(await health(20)).toMatchObject({ admissionState: 'rejecting', rejectBurstCount: 2 });

    // Row 5: the same path several times within the window is quarantined; other paths flow on.
    const outcome = await apply([bad(3), hitEvent({ id: 2, clubId: other, lsn: 2 }), bad(4), bad(5)], 30);
    expect(outcome).toMatchObject({ hits: 1, rejected: 3, admissionState: 'quarantined' });
    const quarantined = await health(30);
    expect(quarantined).toMatchObject({
      status: 'up',
      admissionState: 'quarantined',
      quarantineSince: at(30).toISOString(),
      quarantineTopic: `club.${club}.hits`,
      quarantineClubId: club,
      quarantineEntity: 'hits',
      quarantineReason: 'club_scope_mismatch',
      quarantineDetail: '5 rejects on this path within 300 s; last: sourceClubId 1 outside topic scope ' + club,
      sourceDriftState: 'suspected',
      sourceDriftDetail: `club_scope_mismatch on club.${club}.hits: sourceClubId 1 outside topic scope ${club}`,
      lastContractRejectTopic: `club.${club}.hits`,
      lastContractRejectEntity: 'hits',
      rejectBurstCount: 5,
    });
    expect(quarantined.recentRejects?.[0]).toMatchObject({
      reason: 'club_scope_mismatch',
      clubId: club,
      topic: `club.${club}.hits`,
      sequenceNumber: 4,
    });

    // Anonymous callers: states and timestamps, no club ids, texts or quarantine context.
    const anonymous = await health(30, false);
    expect(anonymous).toEqual(publicIngestHealth(quarantined));
    for (const field of DETAIL_FIELDS) expect(anonymous).not.toHaveProperty(field);
    expect(JSON.stringify(anonymous)).not.toContain(club);

    // A quarantine does not end by time; the path accepted again with matching origin recovers it.
    await runHeartbeat(sql(), options(400));
    expect((await health(400)).admissionState).toBe('quarantined');
    await apply([hitEvent({ id: 9, clubId: club, lsn: 9 })], 410);
    expect(await health(410)).toMatchObject({
      admissionState: 'none',
      incidentState: 'recovered',
      sourceDriftState: 'recovered',
      quarantineSince: null,
      quarantineTopic: null,
    });

    // Drift returns to none after the quiet period, carried by the heartbeat.
    await runHeartbeat(sql(), options(30 + 900));
    expect(await health(30 + 900)).toMatchObject({ sourceDriftState: 'none', sourceDriftDetail: null, incidentState: 'recovered' });
  });
});
