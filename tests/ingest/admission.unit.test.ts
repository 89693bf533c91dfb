import { advanceAdmission, INITIAL_ADMISSION, type AdmissionState, type Observation } from '../../shared/ingest/admission';
import type { RejectReason } from '../../shared/ingest/contract';
import { pathKey } from '../../shared/ingest/contract';
import { TEST_THRESHOLDS } from './fixtures';

const thresholds = TEST_THRESHOLDS;
const t0 = new Date('2026-11-20T19:00:00Z');
const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000);

const path = (club: string, entity = 'hits') => pathKey(`club.${club}.${entity}`, club, entity);
const reject = (club: string, reason: RejectReason = 'body_invalid', entity = 'hits'): Observation => ({
  kind: 'reject',
  path: path(club, entity),
  reject: { reason, topic: `club.${club}.${entity}`, clubId: club, entity, detail: `${reason} detail` },
});
const accepted = (club: string, entity = 'hits'): Observation => ({ kind: 'accepted', path: path(club, entity) });

/** Runs steps of (seconds after t0, observations) from a state. */
function run(steps: [number, Observation[]][], from: AdmissionState = INITIAL_ADMISSION): AdmissionState {
  return steps.reduce((state, [seconds, observations]) => advanceAdmission(state, observations, at(seconds), thresholds), from);
}

describe('admission and drift, row by row of the spec table', () => {
  it('row 1: running live with no fresh rejects stays as it is', () => {
    const state = run([
      [0, [accepted('100'), accepted('200')]],
      [60, [accepted('100')]],
    ]);
    expect(state).toEqual(INITIAL_ADMISSION);
  });

  it('row 2: a single reject is dropped and recorded, admission stays none', () => {
    const state = run([[0, [reject('100')]]]);
    expect(state).toMatchObject({
      admissionState: 'none',
      rejectBurstCount: 1,
      lastContractReject: { reason: 'body_invalid', topic: 'club.100.hits', entity: 'hits', clubId: '100', at: t0.toISOString() },
    });
  });

  it('row 2: fresh, repeated rejects make admission rejecting', () => {
    const state = run([
      [0, [reject('100')]],
      [30, [reject('200', 'entity_unknown', 'lanes')]],
    ]);
    expect(state).toMatchObject({ admissionState: 'rejecting', rejectBurstCount: 2, quarantine: null });
  });

  it('row 2: rejects further apart than the window are not repeated', () => {
    const state = run([
      [0, [reject('100')]],
      [301, [reject('100')]],
    ]);
    expect(state).toMatchObject({ admissionState: 'none', rejectBurstCount: 1 });
  });

  it('row 3: a drift signal before a full incident makes sourceDriftState suspected with a detail', () => {
    const state = run([[0, [reject('100', 'origin_mismatch')]]]);
    expect(state).toMatchObject({
      admissionState: 'none',
      sourceDriftState: 'suspected',
      sourceDriftDetail: 'origin_mismatch on club.100.hits: origin_mismatch detail',
    });
    expect(run([[0, [reject('100', 'club_scope_mismatch')]]]).sourceDriftState).toBe('suspected');
    expect(run([[0, [reject('100', 'body_invalid')]]]).sourceDriftState).toBe('none');
  });

  it('row 4: rejecting, then the same path accepted again with matching origin: incident recovered', () => {
    const state = run([
      [0, [reject('100'), reject('100')]],
      [60, [accepted('100')]],
    ]);
    expect(state).toMatchObject({
      admissionState: 'none',
      incidentState: 'recovered',
      incidentRecoveredAt: at(60).toISOString(),
      rejectBurstCount: 0,
    });
  });

  it('row 4: another path flowing does not recover a rejecting path', () => {
    const state = run([
      [0, [reject('100'), reject('100')]],
      [60, [accepted('200')]],
    ]);
    expect(state).toMatchObject({ admissionState: 'rejecting', incidentState: 'none' });
  });

  it('row 5: the same faulty path rejected several times in short time is quarantined, other paths keep flowing', () => {
    const state = run([
      [0, [reject('100'), reject('100')]],
      [10, [accepted('200'), reject('100'), reject('100')]],
      [20, [reject('100', 'origin_mismatch'), accepted('200')]],
    ]);
    expect(state).toMatchObject({
      admissionState: 'quarantined',
      rejectBurstCount: 5,
      quarantine: {
        since: at(20).toISOString(),
        topic: 'club.100.hits',
        clubId: '100',
        entity: 'hits',
        reason: 'origin_mismatch',
        detail: '5 rejects on this path within 300 s; last: origin_mismatch detail',
      },
    });
  });

  it('row 5: rejects spread over several paths make rejecting, not a quarantine', () => {
    const state = run([[0, ['1', '2', '3', '4', '5', '6'].map((club) => reject(club))]]);
    expect(state).toMatchObject({ admissionState: 'rejecting', rejectBurstCount: 6, quarantine: null });
  });

  it('row 5: a quarantine does not end by time alone', () => {
    const quarantined = run([[0, Array.from({ length: 5 }, () => reject('100'))]]);
    const later = run([[3600, []]], quarantined);
    expect(later).toMatchObject({ admissionState: 'quarantined', rejectBurstCount: 0, quarantine: { clubId: '100' } });
  });

  it('row 4 after row 5: the quarantined path accepted again recovers the incident and clears the quarantine', () => {
    const quarantined = run([[0, Array.from({ length: 5 }, () => reject('100'))]]);
    const state = run([[120, [accepted('100')]]], quarantined);
    expect(state).toMatchObject({ admissionState: 'none', incidentState: 'recovered', quarantine: null, rejectBurstCount: 0 });
  });

  it('row 6: suspected drift recovers once the path is accepted again, then returns to none after the quiet period', () => {
    const suspected = run([[0, [reject('100', 'origin_mismatch')]]]);
    const recovered = run([[30, [accepted('100')]]], suspected);
    expect(recovered.sourceDriftState).toBe('recovered');
    expect(run([[899, []]], recovered).sourceDriftState).toBe('recovered');
    expect(run([[900, []]], recovered)).toMatchObject({ sourceDriftState: 'none', sourceDriftDetail: null });
  });

  it('row 6: suspected drift with no further signal returns to none after the quiet period', () => {
    const suspected = run([[0, [reject('100', 'club_scope_mismatch')]]]);
    expect(run([[600, []]], suspected).sourceDriftState).toBe('suspected');
    expect(run([[900, []]], suspected).sourceDriftState).toBe('none');
  });

  it('rejecting decays to none once no reject is fresh any more', () => {
    const rejecting = run([[0, [reject('100'), reject('200')]]]);
    expect(run([[299, []]], rejecting).admissionState).toBe('rejecting');
    expect(run([[301, []]], rejecting)).toMatchObject({ admissionState: 'none', rejectBurstCount: 0, incidentState: 'none' });
  });

  it('a new incident after a recovery clears incidentState', () => {
    const recovered = run([
      [0, [reject('100'), reject('100')]],
      [10, [accepted('100')]],
    ]);
    expect(recovered.incidentState).toBe('recovered');
    expect(run([[20, [reject('300'), reject('300')]]], recovered)).toMatchObject({ admissionState: 'rejecting', incidentState: 'none' });
  });

  it('does not mutate the previous state', () => {
    const before = run([[0, [reject('100')]]]);
    const copy = JSON.parse(JSON.stringify(before)) as AdmissionState;
    run([[10, [reject('100'), accepted('100')]]], before);
    expect(before).toEqual(copy);
  });
});
