import { publicIngestHealth, summariseIngestHealth, unknownIngestHealth, type IngestHealth } from '../../shared/ingest/health';
import { clubMasterSyncGate, ingestStatusGate, ingestStatusSwitch } from '../../ops/rolloutGates';

const passed = { pass: true, reason: 'the release understands runnerKind "event"' };
const refused = { pass: false, reason: 'the release does not report runnerKindsUnderstood, so it predates runnerKind event' };

/** What GET /healthz/ingest of this release answers anonymous callers, as JSON on the wire. */
const wire = (health: IngestHealth): unknown => JSON.parse(JSON.stringify(publicIngestHealth(health))) as unknown;
const switchOff = wire(unknownIngestHealth());
const noRunnerYet = wire(summariseIngestHealth([], new Map(), [], false, new Date()));

describe('ingest status gate: a release that understands runnerKind event before SVC_INGEST_STATUS_ENABLED goes on', () => {
  it('passes on what this release answers while the switch is off (runnerKind still null)', () => {
    expect(switchOff).toMatchObject({ status: 'unknown', runnerKind: null });
    expect(ingestStatusGate({ status: 200, body: switchOff })).toEqual(passed);
  });

  it('passes on 503 too: switched on before any runner wrote, the release still says what it understands', () => {
    expect(noRunnerYet).toMatchObject({ status: 'down', runnerKind: null });
    expect(ingestStatusGate({ status: 503, body: noRunnerYet })).toEqual(passed);
  });

  it('finds the capability inside a component block', () => {
    expect(ingestStatusGate({ status: 200, body: { status: 'ok', components: { ingest: switchOff } } })).toEqual(passed);
  });

  it('refuses the switch-off body of a release before the capability, even one naming runnerKind', () => {
    const older = { ...(switchOff as Record<string, unknown>) };
    delete older['runnerKindsUnderstood'];
    expect(ingestStatusGate({ status: 200, body: older })).toEqual(refused);
    expect(ingestStatusGate({ status: 200, body: { ...older, status: 'up', runnerKind: 'event' } })).toEqual(refused);
  });

  it.each([
    [{ status: 200, body: { status: 'unknown', runnerKindsUnderstood: ['worker'] } }, /\["worker"\], not "event"/],
    [{ status: 200, body: { status: 'unknown', runnerKindsUnderstood: 'event' } }, /not a list/],
    [{ status: 404, body: { title: 'Not Found' } }, /404/],
    [{ status: 500, body: 'Internal Server Error' }, /500/],
    [{ status: 200, body: 'not json' }, /does not report runnerKindsUnderstood/],
  ])('refuses %j', (probe, reason) => {
    const result = ingestStatusGate(probe);
    expect(result.pass).toBe(false);
    expect(result.reason).toMatch(reason);
  });
});

describe('what the deploy does with SVC_INGEST_STATUS_ENABLED', () => {
  it('switches on only when the gate passed', () => {
    expect(ingestStatusSwitch('true', 'false', passed)).toEqual({ action: 'enable' });
    expect(ingestStatusSwitch('true', '', refused)).toEqual({ refuse: `SVC_INGEST_STATUS_ENABLED stays off: ${refused.reason}` });
  });

  it('always allows switching off, and leaves an unchanged value alone', () => {
    expect(ingestStatusSwitch('false', 'true', refused)).toEqual({ action: 'disable' });
    expect(ingestStatusSwitch(undefined, 'true', refused)).toEqual({ action: 'disable' });
    expect(ingestStatusSwitch('TRUE', 'true', refused)).toEqual({ action: 'keep' });
    expect(ingestStatusSwitch('', undefined, refused)).toEqual({ action: 'keep' });
  });

  it('rejects values that are not true or false', () => {
    expect(() => ingestStatusSwitch('yes', 'false', passed)).toThrow(/SVC_INGEST_STATUS_ENABLED must be true or false/);
    expect(() => ingestStatusSwitch('true', 'on', passed)).toThrow(/deployed SVC_INGEST_STATUS_ENABLED/);
  });
});

describe('club master sync gate: the endpoint before boxes enable the push', () => {
  it('refuses while the cloud answers 404', () => {
    const result = clubMasterSyncGate({ status: 404, body: {} });
    expect(result.pass).toBe(false);
    expect(result.reason).toMatch(/keep the push off/);
  });

  it.each([401, 403, 400])('passes when the unauthenticated probe gets %i', (status) => {
    expect(clubMasterSyncGate({ status, body: {} }).pass).toBe(true);
  });

  it('cannot tell on a server error', () => {
    expect(clubMasterSyncGate({ status: 502, body: '' }).pass).toBe(false);
  });
});
