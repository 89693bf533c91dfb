import { overrideSettings } from '../../shared/config/settings';
import { getSql } from '../../shared/db/client';
import { applyIngestBatch } from '../../shared/ingest/apply';
import { DETAIL_FIELDS } from '../../shared/ingest/health';
import { useTestHost } from '../support/testHost';
import { bearer } from '../support/tokens';
import { useIngestTablesExclusively } from './exclusive';
import { event, hitBody, incoming, uniqueClub, TEST_THRESHOLDS } from './fixtures';

const sql = () => getSql();

let restoreSwitch: (() => void) | undefined;

function useSwitch(on: boolean) {
  restoreSwitch?.();
  restoreSwitch = overrideSettings({ SVC_INGEST_STATUS_ENABLED: on ? 'true' : 'false' });
}

/** A runner row with a heartbeat `ageSeconds` old and one contract reject recorded. */
async function runnerWithReject(ageSeconds: number): Promise<string> {
  const club = uniqueClub();
  const now = new Date(Date.now() - ageSeconds * 1000);
  await applyIngestBatch(sql(), incoming([event(hitBody({ id: 1, clubId: club, lsn: 1 }), { topic: `club.${club}.hits`, clubId: '1' })]), {
    runner: { id: 'event:health-e2e', kind: 'event' },
    statusEnabled: true,
    thresholds: TEST_THRESHOLDS,
    rejectLogMax: 1000,
    now: () => now,
  });
  return club;
}

describe('ingest health over HTTP', () => {
  useIngestTablesExclusively();
  const host = useTestHost();
  afterAll(() => restoreSwitch?.());

  it('answers unknown while the switch is off, and /healthz stays ok', async () => {
    useSwitch(false);
    await runnerWithReject(0);
    const response = await host.request('GET', '/healthz/ingest');
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: 'unknown', admissionState: null, runnerCount: 0 });
    const overall = await host.request('GET', '/healthz');
    expect(overall.status).toBe(200);
    const component = ((await overall.json()) as { components: Record<string, Record<string, unknown>> }).components['ingest'];
    // Unknown carries nothing else: the switch being off means nothing was read.
    expect(Object.keys(component ?? {}).sort()).toEqual(['latencyMs', 'status']);
    expect(component?.['status']).toBe('unknown');
  });

  it('shows states and timestamps to anonymous callers and the details to platform_admin and ops_admin', async () => {
    useSwitch(true);
    const club = await runnerWithReject(0);
    const anonymous = await host.request('GET', '/healthz/ingest');
    expect(anonymous.status).toBe(200);
    const publicBody = (await anonymous.json()) as Record<string, unknown>;
    expect(publicBody).toMatchObject({
      status: 'up',
      runnerKind: 'event',
      workerState: 'running',
      catchUpState: 'live',
      sourceDriftState: 'suspected',
      rejectBurstCount: 1,
    });
    for (const field of DETAIL_FIELDS) expect(publicBody).not.toHaveProperty(field);
    expect(JSON.stringify(publicBody)).not.toContain(club);

    for (const role of ['platform_admin', 'ops_admin']) {
      const response = await host.request('GET', '/healthz/ingest', { headers: await bearer('admin-1', { roles: [role] }) });
      expect(await response.json()).toMatchObject({
        status: 'up',
        lastContractRejectReason: 'club_scope_mismatch',
        lastContractRejectTopic: `club.${club}.hits`,
        lastContractRejectEntity: 'hits',
        lastErrorMessage: null,
        recentRejects: [expect.objectContaining({ clubId: club, reason: 'club_scope_mismatch' })],
      });
    }
    for (const roles of [['support_admin'], ['billing_admin'], []]) {
      const response = await host.request('GET', '/healthz/ingest', { headers: await bearer('user-1', { roles }) });
      expect(response.status).toBe(200);
      expect(await response.json()).not.toHaveProperty('lastContractRejectReason');
    }
    const badToken = await host.request('GET', '/healthz/ingest', { headers: { authorization: 'Bearer not-a-token' } });
    expect(badToken.status).toBe(401);
  });

  it('makes ingest and the service down when the heartbeat is older than 3 minutes', async () => {
    useSwitch(true);
    await runnerWithReject(181);
    const response = await host.request('GET', '/healthz/ingest');
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ status: 'down' });
    const overall = await host.request('GET', '/healthz');
    expect(overall.status).toBe(503);
    const body = (await overall.json()) as { failing: string[]; components: Record<string, Record<string, unknown>> };
    expect(body.failing).toEqual(['ingest']);
    expect(body.components['ingest']).toMatchObject({ status: 'down', admissionState: 'none' });
    expect(body.components['ingest']).not.toHaveProperty('detail');
  });
});
