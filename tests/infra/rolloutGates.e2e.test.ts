import { functionDefinitions } from '../../functions/definitions';
import { ingestHealthRoute } from '../../functions/ingestHealth';
import { clubMasterSyncGate, probe } from '../../ops/rolloutGates';
import { resetSettings } from '../../shared/config/settings';
import { httpGroup, type FunctionDefinition } from '../../shared/host/definition';
import { defineRoute, json } from '../../shared/http/route';
import { publicAccess } from '../../shared/http/guards';
import { unknownIngestHealth } from '../../shared/ingest/health';
import { IngestHealthSchema } from '../../shared/ingest/healthSchema';
import { buildBundles, type BuiltBundles } from '../support/bundles';
import { startTestHost, type TestHost } from '../support/testHost';

function useSwitch(on: boolean) {
  process.env['SVC_INGEST_STATUS_ENABLED'] = on ? 'true' : 'false';
  resetSettings();
}

/** This release's definitions with GET /healthz/ingest answering as a release before the capability did. */
function olderRelease(): FunctionDefinition[] {
  const older = defineRoute({
    method: 'GET',
    path: '/healthz/ingest',
    summary: 'Ingest health of a release before runnerKindsUnderstood',
    guard: publicAccess,
    response: IngestHealthSchema,
    handle() {
      const { runnerKindsUnderstood: _understood, ...body } = unknownIngestHealth();
      return Promise.resolve(json(body as never, 200));
    },
  });
  return functionDefinitions.map((definition) =>
    definition.kind === 'http' && definition.routes.includes(ingestHealthRoute)
      ? httpGroup(
          definition.name,
          '',
          definition.routes.map((route) => (route === ingestHealthRoute ? older : route)),
        )
      : definition,
  );
}

describe('rollout checks against a running release', () => {
  let host: TestHost;
  let bundles: BuiltBundles;
  beforeAll(async () => {
    [host, bundles] = await Promise.all([startTestHost(), buildBundles('rollout-gate')]);
  }, 180_000);
  afterAll(async () => {
    bundles.remove();
    await host.close();
    delete process.env['SVC_INGEST_STATUS_ENABLED'];
    resetSettings();
  });

  /** The deploy's step: `node dist/ops.js rollout:gate ingest-status <url> <desired> <deployed>`. */
  const gate = async (url: string, desired: string, deployed: string) => {
    const started = bundles.start('ops', {}, ['rollout:gate', 'ingest-status', url, desired, deployed]);
    const code = await started.exited;
    return { code, stdout: started.output().replace(started.stderr(), ''), stderr: started.stderr() };
  };

  it('lets the deploy switch SVC_INGEST_STATUS_ENABLED on while it is still off, then keeps or drops it once on', async () => {
    useSwitch(false);
    const off = await (await host.request('GET', '/healthz/ingest')).json();
    expect(off).toMatchObject({ status: 'unknown', runnerKind: null });
    const enable = await gate(host.url, 'true', 'false');
    expect(enable).toMatchObject({ code: 0, stdout: 'action=enable\n' });
    expect(enable.stderr).toContain('understands runnerKind "event"');

    useSwitch(true);
    const keep = await gate(host.url, 'true', 'true');
    expect(keep).toMatchObject({ code: 0, stdout: 'action=keep\n' });
    const disable = await gate(host.url, 'false', 'true');
    expect(disable).toMatchObject({ code: 0, stdout: 'action=disable\n' });
  }, 60_000);

  it('refuses to switch on against a release that does not say it understands runnerKind event', async () => {
    useSwitch(false);
    const older = await startTestHost(olderRelease());
    try {
      const answer = await (await older.request('GET', '/healthz/ingest')).json();
      expect(answer).toMatchObject({ status: 'unknown', runnerKind: null });
      expect(answer).not.toHaveProperty('runnerKindsUnderstood');
      const refused = await gate(older.url, 'true', 'false');
      expect(refused.code).toBe(1);
      expect(refused.stdout).toBe('');
      expect(refused.stderr).toMatch(/SVC_INGEST_STATUS_ENABLED stays off: the release does not report runnerKindsUnderstood/);
      // Switching off never needs the gate.
      expect(await gate(older.url, 'false', 'true')).toMatchObject({ code: 0, stdout: 'action=disable\n' });
    } finally {
      await older.close();
    }
  }, 60_000);

  it('sees the club master sync endpoint of this release (an unauthenticated probe is refused, not 404)', async () => {
    const answer = await probe('POST', `${host.url}/api/edge/clubs/sync`);
    expect(answer.status).toBe(401);
    expect(clubMasterSyncGate(answer).pass).toBe(true);
  });

  it('tells a missing endpoint apart', async () => {
    const answer = await probe('POST', `${host.url}/api/edge/clubs/sync-that-does-not-exist`);
    expect(answer.status).toBe(404);
    expect(clubMasterSyncGate(answer).pass).toBe(false);
  });
});
