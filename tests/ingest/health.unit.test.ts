import { INITIAL_ADMISSION, type AdmissionState } from '../../shared/ingest/admission';
import { publicIngestHealth, summariseIngestHealth } from '../../shared/ingest/health';
import type { RunnerStatusRow } from '../../shared/ingest/statusRepository';

const now = new Date('2026-11-20T20:00:00Z');
const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000);

function runner(
  id: string,
  heartbeatAgo: number,
  admission: Partial<AdmissionState> = {},
  extra: Partial<RunnerStatusRow> = {},
): RunnerStatusRow {
  return {
    runnerId: id,
    runnerKind: 'event',
    workerState: 'running',
    catchUpState: 'live',
    heartbeatAt: ago(heartbeatAgo),
    lastProcessedAt: ago(heartbeatAgo + 5),
    lastSourceEventAt: ago(heartbeatAgo + 6),
    lastErrorMessage: null,
    lagSampledAt: null,
    lagErrorMessage: null,
    totalLag: null,
    maxTopicLag: null,
    lagTopics: null,
    admission: { ...INITIAL_ADMISSION, ...admission },
    ...extra,
  };
}

describe('folding runner rows into the ingest block', () => {
  it('takes the freshest heartbeat, the newest progress and the worst admission and drift', () => {
    const quarantine = {
      since: ago(50).toISOString(),
      path: 'p',
      topic: 'club.1.hits',
      clubId: '1',
      entity: 'hits',
      reason: 'origin_mismatch' as const,
      detail: 'd',
    };
    const health = summariseIngestHealth(
      [
        runner('a', 10),
        runner('b', 100, { admissionState: 'quarantined', quarantine, rejectBurstCount: 5 }),
        runner('c', 20, { sourceDriftState: 'suspected', sourceDriftDetail: 'drift', rejectBurstCount: 1 }),
      ],
      [],
      true,
      now,
    );
    expect(health).toMatchObject({
      status: 'up',
      heartbeatAt: ago(10).toISOString(),
      lastProcessedAt: ago(15).toISOString(),
      admissionState: 'quarantined',
      quarantineTopic: 'club.1.hits',
      quarantineSince: ago(50).toISOString(),
      sourceDriftState: 'suspected',
      sourceDriftDetail: 'drift',
      rejectBurstCount: 6,
      runnerCount: 3,
    });
  });

  it('is down when the freshest heartbeat is older than 3 minutes or the runner is retrying', () => {
    expect(summariseIngestHealth([runner('a', 180)], [], false, now).status).toBe('up');
    expect(summariseIngestHealth([runner('a', 181)], [], false, now).status).toBe('down');
    const failing = summariseIngestHealth(
      [runner('a', 5, {}, { workerState: 'retrying', lastErrorMessage: 'connection refused' })],
      [],
      true,
      now,
    );
    expect(failing).toMatchObject({ status: 'down', statusReason: 'workerState retrying', lastErrorMessage: 'connection refused' });
    expect(publicIngestHealth(failing)).not.toHaveProperty('lastErrorMessage');
  });

  it('never reports lag or stalled for the event runner', () => {
    const health = summariseIngestHealth([runner('a', 5, {}, { totalLag: 40, maxTopicLag: 40, lagTopics: ['x'] })], [], true, now);
    expect(health).toMatchObject({ catchUpState: 'live', totalLag: null, maxTopicLag: null, lagTopics: null });
  });
});
