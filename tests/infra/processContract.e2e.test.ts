import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { EventHubProducerClient } from '@azure/event-hubs';
import type { AccessToken, TokenCredential } from '@azure/identity';
import postgres from 'postgres';
import webPush from 'web-push';
import { readFakeTls } from '../../development/costsFake/certificate';
import { sendChangeEvents } from '../../development/ingest/sendChangeEvents';
import { startPrivateAzurite, type RunningStorage } from '../../development/local/azurite';
import { startLocalEventHubs, type LocalEventHubs } from '../../development/local/eventHubs/localEventHubs';
import { startIdentityEndpoint, type IdentityEndpoint } from '../../development/local/identityEndpoint';
import { freePort } from '../../development/local/net';
import { MIRROR_CLUB_TABLE_DDL } from '../../edge/mirror';
import { getSql } from '../../shared/db/client';
import { buildBundles, watchProcess, type BuiltBundles, type StartedBundle } from '../support/bundles';
import { createBox, createClub } from '../support/fixtures';
import { eventually, hitEvents, hitValues, quarantine, shooterEvents, uniqueClub, uniqueTag } from '../ingest/workerSupport';
import { startLocalSignIn, type LocalSignIn } from './localSignIn';
import {
  boxSampleEnvironment,
  eventHubsModule,
  functionAppEnvironment,
  stepEnvironment,
  workerEnvironment,
  type Locals,
} from './processSettings';
import { environmentSettings, infraSettings } from './settingsSources';
import { useIngestTablesInTurn } from '../ingest/exclusive';

/**
 * The infra-to-process contract: every deployed process started from the BUILT bundles with
 * exactly the settings infra and the workflows give it (processSettings.ts), only secrets and
 * endpoints replaced by local equivalents, and the platform's managed identity endpoint
 * (IDENTITY_ENDPOINT / IDENTITY_HEADER) by its local fake. Storage is an HTTPS Azurite that takes
 * Entra tokens only, the hub a TLS endpoint that takes Entra tokens only, so a process that
 * reached either went the identity path infra sets up, as the identity endpoint's log confirms.
 */

const FUNCTION_CLIENT = '6f1e0c55-0000-4000-8000-00000000f0f0';
const WORKER_CLIENT = '6f1e0c55-0000-4000-8000-00000000c0c0';
const PRODUCER_CLIENT = '6f1e0c55-0000-4000-8000-0000000000be';
const DEPLOYER_CLIENT = '6f1e0c55-0000-4000-8000-0000000000de';
const TENANT = '72f988bf-86f1-41af-91ab-2d7cd011db47';
const STORAGE = 'https://storage.azure.com';
const EVENT_HUBS = 'https://eventhubs.azure.net';

const { hubName, consumerGroups } = eventHubsModule();

describe('infra-to-process contract: each process starts as infra and the workflows start it', () => {
  // Its function hosts and workers write ingest status into the run's database.
  useIngestTablesInTurn();
  let bundles: BuiltBundles;
  let identity: IdentityEndpoint;
  let hub: LocalEventHubs;
  let storage: RunningStorage;
  let caFile: string;
  let locals: Locals;
  /** The tenant's keys: Entra ID in Azure, a local JWKS here (the issuer as main.bicep builds it). */
  let signIn: LocalSignIn;
  /** What the platform gives every process beside its settings, and the trust of the local TLS endpoints. */
  let platform: Record<string, string>;

  beforeAll(async () => {
    caFile = process.env['NODE_EXTRA_CA_CERTS'] ?? '';
    const tls = readFakeTls(caFile);
    [bundles, identity] = await Promise.all([
      buildBundles('process-contract'),
      startIdentityEndpoint({ clientIds: [FUNCTION_CLIENT, WORKER_CLIENT, PRODUCER_CLIENT], systemAssignedId: DEPLOYER_CLIENT }),
    ]);
    hub = await startLocalEventHubs({
      port: 0,
      eventHubs: { [hubName]: { consumerGroups } },
      tls: { key: tls.key, cert: tls.cert },
      // Shared access signatures must match a key nobody has: only Entra tokens get in.
      sharedAccessKey: { name: 'RootManageSharedAccessKey', key: randomBytes(32).toString('base64') },
      verifyBearer: (token) => identity.verify(token, EVENT_HUBS),
    });
    const dir = mkdtempSync(path.join(os.tmpdir(), 'contract-azurite-'));
    const [blob, queue, table] = [await freePort(), await freePort(), await freePort()];
    const keyFile = path.join(dir, 'tls.key');
    writeFileSync(keyFile, tls.key, { mode: 0o600 });
    storage = await startPrivateAzurite({ blob, queue, table }, path.join(dir, 'data'), { identity: { certFile: caFile, keyFile } });
    platform = { ...identity.environment, NODE_EXTRA_CA_CERTS: caFile };
    signIn = await startLocalSignIn(TENANT);
    const vapid = webPush.generateVAPIDKeys();
    locals = {
      secrets: {
        'database-url': process.env['DATABASE_URL'] ?? '',
        'paging-cursor-key': randomBytes(48).toString('base64'),
        // Delivery is exercised in deliveryContract.test.ts; here the app only has to start with it on.
        'notification-hub-connection': `Endpoint=sb://ntfns-contract.servicebus.windows.net/;SharedAccessKeyName=app-send-manage;SharedAccessKey=${randomBytes(32).toString('base64')}`,
        'webpush-vapid-public-key': vapid.publicKey,
        'webpush-vapid-private-key': vapid.privateKey,
      },
      resources: {
        appInsightsConnectionString: 'InstrumentationKey=00000000-0000-0000-0000-000000000000',
        ingestStatusEnabled: 'false',
        eventHubName: hubName,
        functionConsumerGroup: consumerGroups[0] ?? '',
        eventHubsNamespaceHost: hub.fullyQualifiedNamespace,
        storageAccountName: 'testaccount',
        functionIdentityClientId: FUNCTION_CLIENT,
        emailEndpoint: 'https://acs-scb-contract.europe.communication.azure.com',
        emailSenderAddress: 'DoNotReply@0f1e2d3c-contract.azurecomm.net',
        notificationHubName: 'ntf-scb-contract',
        publicBaseUrl: 'https://func-scb-contract.azurewebsites.net',
        webPushSubject: 'https://func-scb-contract.azurewebsites.net',
        costsMonthlyBudget: '600',
      },
      // The cost reader's deployment variables are not set: the app must start and say "not configured".
      // The sign-in ids are (a deployment refuses to go without them), with the tenant's keys local.
      deployment: {
        AUTH_ISSUER: signIn.issuer,
        AUTH_JWKS_URL: signIn.jwksUrl,
        AUTH_OIDC_AUTHORITY: signIn.issuer,
        AUTH_PORTAL_CLIENT_ID: '4a1aa1d5-c567-49d0-ad0b-cd957a47f842',
        AUTH_APP_CLIENT_ID: '9b2c6e1f-3d4a-4b5c-8d7e-0f1a2b3c4d5e',
      },
    };
  }, 180_000);

  afterAll(async () => {
    bundles?.remove();
    await signIn?.close();
    await hub?.close();
    await storage?.release();
    await identity?.close();
  });

  /** The worker's Container App secrets: the run's database, and the same Application Insights connection the function app gets. */
  const workerSecrets = () => ({
    'database-url': process.env['DATABASE_URL'] ?? '',
    'appinsights-connection': locals.resources['appInsightsConnectionString'] ?? '',
  });

  /** The storage account's endpoint, where Azure derives it from AzureWebJobsStorage__accountName. */
  const localStorageEndpoint = () => ({ AzureWebJobsStorage__tableServiceUri: storage.tableServiceUri ?? '' });

  const tokensFor = (clientId: string) =>
    identity.issued.filter((request) => request.clientId === clientId).map((request) => request.resource);

  describe.each(['staging', 'production'] as const)('the function app on %s', (environment) => {
    let app: StartedBundle;
    let url: string;

    beforeAll(async () => {
      const settings = functionAppEnvironment(environment, locals);
      app = startBundleHost(bundles.outdir, { ...settings, ...localStorageEndpoint(), ...platform });
      await app.printed('Listening: ');
      url = /Listening: (\S+)/.exec(app.output())?.[1] ?? '';
    }, 60_000);

    afterAll(() => stopBundleHost(app));

    it('gets no connection string and no key: storage and Event Hubs through its identity', () => {
      const settings = functionAppEnvironment(environment, locals);
      expect(settings).not.toHaveProperty('AzureWebJobsStorage');
      expect(settings).not.toHaveProperty('INGEST_EVENTHUB_CONNECTION');
      expect(settings).toMatchObject({
        AzureWebJobsStorage__credential: 'managedidentity',
        AzureWebJobsStorage__clientId: FUNCTION_CLIENT,
        INGEST_EVENTHUB_CONNECTION__fullyQualifiedNamespace: hub.fullyQualifiedNamespace,
        INGEST_EVENTHUB_CONNECTION__credential: 'managedidentity',
        INGEST_EVENTHUB_CONNECTION__clientId: FUNCTION_CLIENT,
      });
    });

    it('starts from the built bundle and reports healthy, reaching storage with its managed identity', async () => {
      const response = await fetch(`${url}/healthz`);
      const body = (await response.json()) as { status: string; components?: Record<string, unknown> };
      expect({ status: response.status, body }).toMatchObject({ status: 200, body: { status: 'ok' } });
      // Staging before its worker runs: not down for that (the deploy waits for this answer).
      if (environment === 'staging') expect(body.components?.['ingest']).toMatchObject({ status: 'unknown' });
      expect(tokensFor(FUNCTION_CLIENT)).toContain(STORAGE);
    });

    it('runs on the Node.js pinned in .nvmrc, the runtime infra deploys it on', () => {
      const pinned = readFileSync(path.join(__dirname, '..', '..', '.nvmrc'), 'utf8').trim();
      expect(app.output()).toContain(`Node.js: v${pinned}`);
    });

    it('runs exactly one ingest runner: the function and its heartbeat on production only', () => {
      const functions = /Functions: (.*)/.exec(app.output())?.[1]?.split(', ') ?? [];
      expect(functions.includes('ingest')).toBe(environment === 'production');
      expect(functions.includes('ingestHeartbeat')).toBe(environment === 'production');
    });

    if (environment === 'production') {
      it('ingests from the hub with its managed identity (its own consumer group)', async () => {
        const club = uniqueClub();
        await publishWithIdentity(hub, identity, hitEvents(club, 5));
        await eventually(async () => (await hitValues(getSql(), club)).size === 5);
        expect(tokensFor(FUNCTION_CLIENT)).toContain(EVENT_HUBS);
      }, 60_000);
    }

    it('answers the rollout check with the runner kinds it understands (production: unknown while the status switch is off)', async () => {
      const response = await fetch(`${url}/healthz/ingest`);
      const body = (await response.json()) as { status: string; runnerKind: unknown; runnerKindsUnderstood: string[] };
      expect(body.runnerKindsUnderstood).toContain('event');
      if (environment === 'production')
        expect({ status: response.status, body }).toMatchObject({ status: 200, body: { status: 'unknown', runnerKind: null } });
      // Staging reads its worker whatever the switch says (tests below); never the function's kind.
      else expect(body.runnerKind).not.toBe('event');
    });

    // With any of them missing the cost status says configured: false (tests/infra/costSettings.unit.test.ts).
    it('gets no cost reader setting while the deployment variables are unset', () => {
      const settings = functionAppEnvironment(environment, locals);
      expect(Object.keys(settings).filter((name) => name.startsWith('INTERNAL_CLOUD_COST_') && !name.endsWith('_URL'))).toEqual([]);
    });
  });

  describe('the staging worker container', () => {
    /** The worker module's parameters (ingestWorker.bicep), pointed at this test's hub and storage. */
    const workerParams = (): Record<string, string> => ({
      eventHubsNamespaceHost: hub.fullyQualifiedNamespace,
      identityClientId: WORKER_CLIENT,
      eventHubName: hubName,
      consumerGroup: consumerGroups[1] ?? '',
      storageAccountName: 'testaccount',
    });
    it('starts with its env block, reads the hub and writes its checkpoints with its managed identity', async () => {
      const env = workerEnvironment(workerSecrets(), workerParams());
      expect(env).not.toHaveProperty('INGEST_EVENTHUB_CONNECTION');
      expect(env).not.toHaveProperty('AzureWebJobsStorage');
      // A fresh checkpoint table: the same name as deployed, in a storage account of this test alone.
      const worker = bundles.start('ingest-worker', {
        ...env,
        ...localStorageEndpoint(),
        ...platform,
        INGEST_WORKER_LAG_SAMPLE_SECONDS: '1',
      });
      try {
        await worker.printed('Ingest worker: ');
        expect(worker.output()).toContain(`with managed identity ${WORKER_CLIENT}`);
        const club = uniqueClub();
        await publishWithIdentity(hub, identity, hitEvents(club, 12));
        await eventually(async () => (await hitValues(getSql(), club)).size === 12);
        expect(tokensFor(WORKER_CLIENT)).toEqual(expect.arrayContaining([STORAGE, EVENT_HUBS]));
      } finally {
        worker.child.kill('SIGTERM');
        expect(await worker.exited).toBe(0);
      }
    }, 90_000);

    it('is seen where staging looks: health, the diagnostics summary and the club page read the worker, not the function', async () => {
      const worker = bundles.start('ingest-worker', {
        ...workerEnvironment(workerSecrets(), workerParams()),
        ...localStorageEndpoint(),
        ...platform,
        INGEST_WORKER_LAG_SAMPLE_SECONDS: '1',
      });
      const app = startBundleHost(bundles.outdir, { ...functionAppEnvironment('staging', locals), ...localStorageEndpoint(), ...platform });
      const vereinsId = uniqueClub();
      let restore: (() => Promise<void>) | undefined;
      try {
        expect(environmentSettings('staging')['INGEST_RUNNER']).toBe('worker');
        await worker.printed('Ingest worker: ');
        await app.printed('Listening: ');
        const url = /Listening: (\S+)/.exec(app.output())?.[1] ?? '';
        await publishWithIdentity(hub, identity, hitEvents(vereinsId, 3));
        await eventually(async () => (await hitValues(getSql(), vereinsId)).size === 3);
        // The worker's admission state: a quarantine of this club's path, as the worker would set it.
        restore = await quarantine(getSql(), vereinsId);
        const club = await createClub(getSql(), { vereinsId });
        const admin = { authorization: `Bearer ${await signIn.token('contract-admin', ['platform_admin'])}` };

        const health = await eventually(async () => {
          const body = (await (await fetch(`${url}/healthz/ingest`)).json()) as Record<string, unknown>;
          return body['status'] === 'up' ? body : undefined;
        });
        expect(health).toMatchObject({ runnerKind: 'worker', workerState: 'running', admissionState: 'quarantined' });

        const summary = (await (await fetch(`${url}/api/admin/diagnostics/summary`, { headers: admin })).json()) as { ingest: unknown };
        expect(summary.ingest).toMatchObject({ status: 'up', runnerKind: 'worker', quarantineClubId: vereinsId });

        const page = await fetch(`${url}/api/admin/clubs/${club.clubId}/overview`, { headers: admin });
        expect(page.status).toBe(200);
        expect(((await page.json()) as { ingest: unknown }).ingest).toMatchObject({
          quarantine: { clubId: vereinsId, entity: 'shooters' },
        });
      } finally {
        await restore?.();
        worker.child.kill('SIGTERM');
        await worker.exited;
        await stopBundleHost(app);
      }
    }, 120_000);

    it('stops with the error the docs promise when its storage setting is missing', async () => {
      const env = workerEnvironment(workerSecrets(), {
        eventHubsNamespaceHost: hub.fullyQualifiedNamespace,
        identityClientId: WORKER_CLIENT,
        eventHubName: hubName,
        consumerGroup: 'staging-worker',
        storageAccountName: '',
      });
      delete env['AzureWebJobsStorage__accountName'];
      const worker = bundles.start('ingest-worker', { ...env, ...platform });
      expect(await worker.exited).toBe(1);
      expect(worker.output()).toContain(
        'Start-up failed: Neither AzureWebJobsStorage nor AzureWebJobsStorage__accountName / __tableServiceUri is set',
      );
    }, 30_000);
  });

  it('migrate: the deploy workflows give it DATABASE_URL from Key Vault and nothing else', async () => {
    for (const file of ['deploy-staging.yml', 'deploy-production.yml']) {
      expect(Object.keys(stepEnvironment(file, 'Apply database migrations (stops the deploy on failure)'))).not.toContain('DATABASE_URL');
    }
    const run = bundles.start('ops', { DATABASE_URL: process.env['DATABASE_URL'] ?? '' }, ['migrate']);
    expect(await run.exited).toBe(0);
    expect(run.output()).toMatch(/applied 0 migration\(s\)/);
  }, 30_000);

  it("replay and backfill: the replay workflow's settings and the deployer login read the hub with the provisioned backfill group", async () => {
    const step = stepEnvironment('replay-shooter-master-data.yml', 'Run the shooters backfill of each club');
    const outputs: Record<string, string> = {
      'steps.staging.outputs.namespace': hub.fullyQualifiedNamespace,
      'steps.staging.outputs.hub': hubName,
      'steps.staging.outputs.storage': 'testaccount',
    };
    const env: Record<string, string> = {};
    for (const [name, expression] of Object.entries(step)) {
      const reference = /^\$\{\{ (.+) \}\}$/.exec(expression)?.[1] ?? '';
      if (outputs[reference] !== undefined) env[name] = outputs[reference];
    }
    expect(Object.keys(env).sort()).toEqual([
      'AzureWebJobsStorage__accountName',
      'INGEST_EVENTHUB_CONNECTION__fullyQualifiedNamespace',
      'INGEST_EVENTHUB_NAME',
    ]);
    const club = uniqueClub();
    await publishWithIdentity(hub, identity, shooterEvents(club, ['Anna Adler', 'Bernd Bauer']));
    // The workflow's own defaults for the inputs: the stable group, not a fresh one.
    const groupDefault = /group_id:\n(?:\s+.+\n)*?\s+default: (\S+)/.exec(readWorkflow('replay-shooter-master-data.yml'))?.[1] ?? '';
    expect(infraSettings().app['INGEST_BACKFILL_CONSUMER_GROUP']).toBe(groupDefault);
    const release = mkdtempSync(path.join(os.tmpdir(), 'contract-replay-'));
    try {
      symlinkSync(bundles.outdir, path.join(release, 'dist'));
      const result = await runScript(path.join(__dirname, '..', '..', 'ops', 'replayShooters.sh'), release, {
        ...env,
        ...localStorageEndpoint(),
        ...platform,
        DATABASE_URL: process.env['DATABASE_URL'] ?? '',
        CLUB_IDS: club,
        GROUP_ID: groupDefault,
        NEW_GROUP: '--new-group',
      });
      expect({ code: result.code, output: result.output }).toMatchObject({ code: 0 });
      expect(result.output).toContain(`Shooters backfill done for club(s): ${club}`);
      expect(tokensFor(DEPLOYER_CLIENT)).toEqual(expect.arrayContaining([STORAGE, EVENT_HUBS]));
    } finally {
      rmSync(release, { recursive: true, force: true });
    }
  }, 90_000);

  describe('processes that reach the production app over HTTP', () => {
    let app: StartedBundle;
    let url: string;

    beforeAll(async () => {
      app = startBundleHost(bundles.outdir, { ...functionAppEnvironment('production', locals), ...localStorageEndpoint(), ...platform });
      await app.printed('Listening: ');
      url = /Listening: (\S+)/.exec(app.output())?.[1] ?? '';
    }, 60_000);

    afterAll(() => stopBundleHost(app));

    it("freshness alarm: the workflow's command against the app reports and exits as documented", async () => {
      // The job's env: the snooze variable, empty while no holiday pause is set.
      expect(readWorkflow('freshness-alarm.yml')).toContain('SVC_FRESHNESS_SNOOZE_UNTIL: ${{ vars.SVC_FRESHNESS_SNOOZE_UNTIL }}');
      const alarm = bundles.start('ops', { SVC_FRESHNESS_SNOOZE_UNTIL: '' }, ['freshness:check', '--url', url]);
      const code = await alarm.exited;
      // 0 ok or unknown, 1 stale or error (docs/freshness.md): which one depends on the run's clubs.
      expect([0, 1]).toContain(code);
      expect(alarm.output()).toMatch(/Data freshness (ok|unknown|STALE|ERROR)/);
    }, 30_000);

    it('freshness alarm: an unset SVC_BASE_URL stops it with exit 64 and its usage (docs/freshness.md)', async () => {
      const alarm = bundles.start('ops', { SVC_FRESHNESS_SNOOZE_UNTIL: '' }, ['freshness:check', '--url', '']);
      expect(await alarm.exited).toBe(64);
      expect(alarm.stderr()).toContain('Usage: freshness:check --url https://<deployment>');
    }, 30_000);

    it('box agent: edge/.env.sample with its token, the app URL, its mirror and the push released starts and pushes its clubs', async () => {
      const sample = boxSampleEnvironment();
      const box = await createBox(getSql());
      const mirror = await createMirror();
      try {
        const port = await freePort();
        const env = {
          ...Object.fromEntries(Object.entries(sample).filter(([, value]) => value !== '')),
          SVC_EDGE_API_TOKEN: box.token,
          SVC_CLOUD_BASE_URL: url,
          // The sample ships the push off; the operator switches it on once the sync endpoint is live (rollout order).
          SVC_CLUB_MASTER_SYNC_ENABLED: 'true',
          SVC_MIRROR_DATABASE_URL: mirror.url,
          SVC_EDGE_PORT: String(port),
        };
        const agent = bundles.start('edge-agent', env);
        try {
          await agent.printed('Box agent:');
          const run = await fetch(`http://127.0.0.1:${port}/api/club-master-sync/run`, { method: 'POST' });
          expect(run.status).toBe(200);
          const status = (await (await fetch(`http://127.0.0.1:${port}/api/club-master-sync/status`)).json()) as Record<string, unknown>;
          expect(status).toMatchObject({ enabled: true, lastError: null, lastResult: { reported: 1 } });
        } finally {
          agent.child.kill('SIGTERM');
          await agent.exited;
        }
      } finally {
        await mirror.drop();
      }
    }, 60_000);
  });
});

/**
 * Stops a bundle host and waits until it has exited: the hub, storage and identity endpoint it
 * uses close in the outer afterAll, and a host whose hub goes away while it closes its Event Hubs
 * consumer never finishes closing (it would outlive the run, its pipes holding the jest worker).
 */
async function stopBundleHost(app: StartedBundle | undefined): Promise<void> {
  if (!app) return;
  app.child.kill('SIGTERM');
  await app.exited;
}

/** `node <repo>/tests/support/bundleHost.ts <outdir>/main.js` through tsx, with only `env` (and PATH). */
function startBundleHost(outdir: string, env: Record<string, string>): StartedBundle {
  const root = path.resolve(__dirname, '..', '..');
  const child = spawn(
    process.execPath,
    [require.resolve('tsx/cli'), path.join(root, 'tests', 'support', 'bundleHost.ts'), path.join(outdir, 'main.js'), '0'],
    {
      cwd: outdir,
      env: { PATH: process.env['PATH'] ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  return watchProcess(child, 'bundle host');
}

/** A producer on the TLS hub with a token of the identity endpoint, as a club's connector would publish. */
async function publishWithIdentity(
  hub: LocalEventHubs,
  identity: IdentityEndpoint,
  events: Parameters<typeof sendChangeEvents>[1],
): Promise<void> {
  const credential: TokenCredential = {
    async getToken(): Promise<AccessToken> {
      const endpoint = new URL(identity.environment.IDENTITY_ENDPOINT);
      endpoint.search = new URLSearchParams({
        'api-version': '2019-08-01',
        resource: 'https://eventhubs.azure.net',
        client_id: PRODUCER_CLIENT,
      }).toString();
      const response = await fetch(endpoint, { headers: { 'x-identity-header': identity.environment.IDENTITY_HEADER } });
      const body = (await response.json()) as { access_token: string; expires_on: string };
      return { token: body.access_token, expiresOnTimestamp: Number(body.expires_on) * 1000 };
    },
  };
  const producer = new EventHubProducerClient(hub.fullyQualifiedNamespace, hubName, credential);
  try {
    await sendChangeEvents(producer, events);
  } finally {
    await producer.close();
  }
}

async function createMirror(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `mirror_${uniqueTag()}`;
  const admin = postgres(process.env['DATABASE_URL'] ?? '', { max: 1, onnotice: () => undefined });
  await admin.unsafe(`create database "${name}"`);
  const url = new URL(process.env['DATABASE_URL'] ?? '');
  url.pathname = `/${name}`;
  const mirror = postgres(url.toString(), { max: 1, onnotice: () => undefined });
  await mirror.unsafe(MIRROR_CLUB_TABLE_DDL);
  await mirror`insert into club_software_club (vereins_id, name) values ('6001', 'SV Vertrag')`;
  await mirror.end();
  return {
    url: url.toString(),
    drop: async () => {
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end();
    },
  };
}

function readWorkflow(file: string): string {
  return readFileSync(path.join(__dirname, '..', '..', '.github', 'workflows', file), 'utf8');
}

function runScript(script: string, cwd: string, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('sh', [script], { cwd, env: { PATH: process.env['PATH'] ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => resolve({ code, output }));
  });
}
