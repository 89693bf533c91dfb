import { INITIAL_ADMISSION, type AdmissionState } from '../../shared/ingest/admission';
import { publicIngestHealth, summariseIngestHealth } from '../../shared/ingest/health';
import type { RunnerStatusRow } from '../../shared/ingest/statusRepository';

const now = new Date('2026-11-20T20:00:00Z');
const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000);
const noAdmission = new Map<RunnerStatusRow['runnerKind'], AdmissionState>();

function runner(id: string, heartbeatAgo: number | null, extra: Partial<RunnerStatusRow> = {}): RunnerStatusRow {
  return {
    runnerId: id,
    runnerKind: 'event',
    workerState: 'running',
    catchUpState: 'live',
    heartbeatAt: heartbeatAgo === null ? null : ago(heartbeatAgo),
    lastProcessedAt: null,
    lastSourceEventAt: null,
    lastErrorMessage: null,
    lagSampledAt: null,
    lagErrorMessage: null,
    totalLag: null,
    maxTopicLag: null,
    lagTopics: null,
    lastErrorAt: null,
    updatedAt: ago(heartbeatAgo ?? 3600),
    ...extra,
  };
}

describe('folding runner rows into the ingest block', () => {
  it('takes the freshest heartbeat, the newest progress of any instance and the shared admission state', () => {
    const quarantine = {
      since: ago(50).toISOString(),
      path: 'p',
      topic: 'club.1.hits',
      clubId: '1',
      entity: 'hits',
      reason: 'origin_mismatch' as const,
      detail: 'd',
    };
    const admission = new Map([
      [
        'event' as const,
        {
          ...INITIAL_ADMISSION,
          admissionState: 'quarantined' as const,
          quarantine,
          rejectBurstCount: 5,
          sourceDriftState: 'suspected' as const,
        },
      ],
    ]);
    const health = summariseIngestHealth(
      [
        runner('timer-instance', 10),
        // Another instance: heartbeat only from its first write, but it processed lately.
        runner('other-instance', 900, { lastProcessedAt: ago(4), lastSourceEventAt: ago(6), updatedAt: ago(4) }),
        // A scaled-in instance: not counted any more.
        runner('gone-instance', 7200),
      ],
      admission,
      [],
      true,
      now,
    );
    expect(health).toMatchObject({
      status: 'up',
      heartbeatAt: ago(10).toISOString(),
      lastProcessedAt: ago(4).toISOString(),
      lastSourceEventAt: ago(6).toISOString(),
      admissionState: 'quarantined',
      quarantineTopic: 'club.1.hits',
      quarantineSince: ago(50).toISOString(),
      sourceDriftState: 'suspected',
      rejectBurstCount: 5,
      runnerCount: 2,
    });
  });

  it('is down when the freshest heartbeat is older than 3 minutes', () => {
    expect(summariseIngestHealth([runner('a', 180)], noAdmission, [], false, now).status).toBe('up');
    expect(summariseIngestHealth([runner('a', 181)], noAdmission, [], false, now).status).toBe('down');
    expect(summariseIngestHealth([runner('a', null)], noAdmission, [], true, now)).toMatchObject({
      status: 'down',
      statusReason: 'no heartbeat since ever',
    });
  });

  it('is down while any instance failed a batch within 3 minutes, and shows its error to admins only', () => {
    const failing = runner('b', 900, { workerState: 'retrying', lastErrorMessage: 'connection refused', lastErrorAt: ago(30) });
    const health = summariseIngestHealth([runner('a', 5), failing], noAdmission, [], true, now);
    expect(health).toMatchObject({
      status: 'down',
      workerState: 'retrying',
      statusReason: 'workerState retrying on b',
      lastErrorMessage: 'connection refused',
    });
    expect(publicIngestHealth(health)).not.toHaveProperty('lastErrorMessage');
    const longAgo = runner('b', 900, { workerState: 'retrying', lastErrorMessage: 'x', lastErrorAt: ago(600) });
    expect(summariseIngestHealth([runner('a', 5), longAgo], noAdmission, [], false, now).status).toBe('up');
  });

  it('never reports lag or stalled for the event runner', () => {
    const health = summariseIngestHealth([runner('a', 5, { totalLag: 40, maxTopicLag: 40, lagTopics: ['x'] })], noAdmission, [], true, now);
    expect(health).toMatchObject({ catchUpState: 'live', totalLag: null, maxTopicLag: null, lagTopics: null, admissionState: 'none' });
  });
});
