import { advanceAdmission, INITIAL_ADMISSION, type Observation } from '../../shared/ingest/admission';
import { classifyMessage, pathKey, type RejectReason } from '../../shared/ingest/contract';
import { refuseWithoutConsent } from '../../shared/ingest/consentRefusal';
import { event, hitEvent, incoming, shooterBody, TEST_THRESHOLDS } from './fixtures';

const classify = (events: Parameters<typeof incoming>[0]) => incoming(events).map(classifyMessage);

describe('refusing the score rows of a club without consent', () => {
  it('turns every change of a refusing club into consent_not_granted and leaves other clubs and rejects alone', () => {
    const batch = classify([
      hitEvent({ id: 1, clubId: '4711', lsn: 1 }),
      event(shooterBody({ id: 2, clubId: '4711', lsn: 2, op: 'd' }), { topic: 'club.4711.shooters', clubId: '4711' }),
      hitEvent({ id: 3, clubId: '4712', lsn: 3 }),
      event({ broken: true }, { topic: 'club.4711.hits', clubId: '4711' }),
    ]);
    const result = refuseWithoutConsent(batch, new Map([['4711', 'REVOKED']]));
    expect(result.map((item) => (item.kind === 'reject' ? item.reject.reason : item.kind))).toEqual([
      'consent_not_granted',
      'consent_not_granted',
      'change',
      'body_invalid',
    ]);
    expect(result[1]).toMatchObject({ kind: 'reject', reject: { entity: 'shooters', clubId: '4711', topic: 'club.4711.shooters' } });
    expect(refuseWithoutConsent(batch, new Map())).toEqual(batch);
  });
});

describe('admission and consent rejects', () => {
  const path = pathKey('club.4711.hits', '4711', 'hits');
  const rejects = (reason: RejectReason, count: number): Observation[] =>
    Array.from({ length: count }, () => ({
      kind: 'reject',
      path,
      reject: { reason, topic: 'club.4711.hits', clubId: '4711', entity: 'hits', detail: reason },
    }));
  const after = (observations: Observation[]) =>
    advanceAdmission(INITIAL_ADMISSION, observations, new Date('2026-11-20T19:00:00Z'), TEST_THRESHOLDS);

  it('counts them toward rejecting but never quarantines their path', () => {
    const state = after(rejects('consent_not_granted', TEST_THRESHOLDS.quarantineThreshold * 2));
    expect(state).toMatchObject({ admissionState: 'rejecting', quarantine: null, lastContractReject: { reason: 'consent_not_granted' } });
    // The same number of faulty bodies does quarantine: the difference is the reason.
    expect(after(rejects('body_invalid', TEST_THRESHOLDS.quarantineThreshold)).admissionState).toBe('quarantined');
  });

  it('recovers once the path is accepted again (the club granted)', () => {
    const refused = after(rejects('consent_not_granted', 3));
    const state = advanceAdmission(refused, [{ kind: 'accepted', path }], new Date('2026-11-20T19:01:00Z'), TEST_THRESHOLDS);
    expect(state).toMatchObject({ admissionState: 'none', incidentState: 'recovered' });
  });
});
