import { functionDefinitions } from '../../functions/definitions';
import { ingestHealthRoute } from '../../functions/ingestHealth';
import { clubMasterSyncGate, probe } from '../../ops/rolloutGates';
import { overrideSettings } from '../../shared/config/settings';
import { httpGroup, type FunctionDefinition } from '../../shared/host/definition';
import { defineRoute, json } from '../../shared/http/route';
import { publicAccess } from '../../shared/http/guards';
import { unknownIngestHealth } from '../../shared/ingest/health';
import { IngestHealthSchema } from '../../shared/ingest/healthSchema';
import { buildBundles, type BuiltBundles } from '../support/bundles';
import { useTestHost } from '../support/testHost';

const restores: (() => void)[] = [];
/** The running release's SVC_INGEST_STATUS_ENABLED for the running test. */
function useSwitch(on: boolean) {
  restores.push(overrideSettings({ SVC_INGEST_STATUS_ENABLED: on ? 'true' : 'false' }));
}
afterEach(() => {
  for (const restore of restores.splice(0).reverse()) restore();
});

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
  let bundles: BuiltBundles;
  beforeAll(async () => {
    bundles = await buildBundles('rollout-gate');
  }, 180_000);
  afterAll(() => bundles.remove());

  /** The deploy's step: `node dist/ops.js rollout:gate ingest-status <url> <desired> <deployed>`. */
  const gate = async (url: string, desired: string, deployed: string) => {
    const started = bundles.start('ops', {}, ['rollout:gate', 'ingest-status', url, desired, deployed]);
    const code = await started.exited;
    return { code, stdout: started.output().replace(started.stderr(), ''), stderr: started.stderr() };
  };

  describe('this release', () => {
    const host = useTestHost();

    it('lets the deploy switch SVC_INGEST_STATUS_ENABLED on while it is still off', async () => {
      useSwitch(false);
      const off = await (await host.request('GET', '/healthz/ingest')).json();
      expect(off).toMatchObject({ status: 'unknown', runnerKind: null });
      const enable = await gate(host.url, 'true', 'false');
      expect(enable).toMatchObject({ code: 0, stdout: 'action=enable\n' });
      expect(enable.stderr).toContain('understands runnerKind "event"');
    }, 60_000);

    it('keeps SVC_INGEST_STATUS_ENABLED on once it is on', async () => {
      useSwitch(true);
      const keep = await gate(host.url, 'true', 'true');
      expect(keep).toMatchObject({ code: 0, stdout: 'action=keep\n' });
    }, 60_000);

    it('drops SVC_INGEST_STATUS_ENABLED once on when the deploy wants it off', async () => {
      useSwitch(true);
      const disable = await gate(host.url, 'false', 'true');
      expect(disable).toMatchObject({ code: 0, stdout: 'action=disable\n' });
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

  describe('a release before runnerKindsUnderstood', () => {
    const older = useTestHost(olderRelease());

    it('refuses to switch on against a release that does not say it understands runnerKind event', async () => {
      useSwitch(false);
      const answer = await (await older.request('GET', '/healthz/ingest')).json();
      expect(answer).toMatchObject({ status: 'unknown', runnerKind: null });
      expect(answer).not.toHaveProperty('runnerKindsUnderstood');
      const refused = await gate(older.url, 'true', 'false');
      expect(refused.code).toBe(1);
      expect(refused.stdout).toBe('');
      expect(refused.stderr).toMatch(/SVC_INGEST_STATUS_ENABLED stays off: the release does not report runnerKindsUnderstood/);
    }, 60_000);

    it('lets the deploy switch off against it: switching off needs no capability', async () => {
      useSwitch(false);
      expect(await gate(older.url, 'false', 'true')).toMatchObject({ code: 0, stdout: 'action=disable\n' });
    }, 60_000);
  });
});
