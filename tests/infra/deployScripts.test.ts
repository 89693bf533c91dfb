import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { buildBundles, type BuiltBundles } from '../support/bundles';
import { fakeCommand, stepScript } from './workflowSteps';
import { root } from './settingsSources';

const run = promisify(execFile);

/** Runs a script with bash (or sh) in `cwd`; resolves with the exit code and output. */
function runScript(shell: 'bash' | 'sh', args: string[], cwd: string, env: Record<string, string>) {
  return new Promise<{ code: number; output: string }>((resolve) => {
    execFile(shell, args, { cwd, env, timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, output: stdout + stderr }),
    );
  });
}

/**
 * The scripts a deploy runs, against a checkout after `npm run build` (the bundles built into a
 * temporary folder): the workflows' packaging step, and azd's provision hooks with a fake `azd`
 * and `az` that log what they were asked.
 */
describe('deploy scripts', () => {
  let bundles: BuiltBundles;
  let checkout: string;

  beforeAll(async () => {
    bundles = await buildBundles('deploy-scripts');
    checkout = mkdtempSync(path.join(os.tmpdir(), 'deploy-checkout-'));
    symlinkSync(bundles.outdir, path.join(checkout, 'dist'));
    for (const file of ['host.json', 'package.json', 'infra/app-package.json', 'infra/azd/preprovision.sh', 'infra/azd/postprovision.sh']) {
      mkdirSync(path.dirname(path.join(checkout, file)), { recursive: true });
      cpSync(path.join(root, file), path.join(checkout, file));
    }
    fakeCommand(path.join(checkout, 'bin'), 'npm', 'exit 0');
    fakeCommand(path.join(checkout, 'bin'), 'azd', 'printf "%s\\n" "$*" >> "$FAKE_LOG"');
    fakeCommand(path.join(checkout, 'bin'), 'az', 'printf "%s\\n" "$*" >> "$FAKE_LOG"\nexit 0');
  }, 120_000);

  afterAll(() => {
    bundles.remove();
    rmSync(checkout, { recursive: true, force: true });
  });

  const env = (extra: Record<string, string>) => ({
    PATH: `${path.join(checkout, 'bin')}:${process.env['PATH'] ?? ''}`,
    FAKE_LOG: path.join(checkout, 'calls.log'),
    ...extra,
  });
  const calls = () => readFileSync(path.join(checkout, 'calls.log'), 'utf8').trim().split('\n');
  beforeEach(() => rmSync(path.join(checkout, 'calls.log'), { force: true }));

  it('the package step zips a function app that loads as the Functions worker loads it', async () => {
    const script = stepScript(
      readFileSync(path.join(root, '.github', 'workflows', 'deploy-staging.yml'), 'utf8'),
      'Package the function app',
    );
    const result = await runScript('bash', ['-eo', 'pipefail', '-c', script], checkout, env({}));
    expect(result).toMatchObject({ code: 0 });
    const unpacked = mkdtempSync(path.join(os.tmpdir(), 'app-zip-'));
    try {
      await run('unzip', ['-q', path.join(checkout, 'app.zip'), '-d', unpacked]);
      const { stdout } = await run('unzip', ['-Z1', path.join(checkout, 'app.zip')]);
      const entries = stdout.split('\n').filter(Boolean);
      expect(entries).toEqual(
        expect.arrayContaining([
          'host.json',
          'package.json',
          'dist/main.js',
          // The app's entry and an area module it loads on first use (development/build.mjs).
          'dist/functions/main.mjs',
          'dist/functions/challenges.mjs',
          'dist/identitySdk.js',
          'dist/costSdk.js',
        ]),
      );
      expect(entries.some((entry) => entry.startsWith('dist/portal/'))).toBe(true);
      // Not the box agent, the worker or the commands.
      expect(entries.filter((entry) => /edge-agent|ingest-worker|ops\.js/.test(entry))).toEqual([]);
      const loaded = await run(
        process.execPath,
        [path.join(root, 'tests', 'support', 'loadBundle.js'), path.join(unpacked, 'dist', 'main.js')],
        {
          cwd: unpacked,
          env: { PATH: process.env['PATH'] ?? '', AUTH_JWT_SECRET: 'x'.repeat(40), AUTH_ISSUER: 'local-dev', AUTH_AUDIENCE: 'api' },
        },
      );
      expect((JSON.parse(loaded.stdout) as unknown[]).length).toBeGreaterThan(5);
    } finally {
      rmSync(unpacked, { recursive: true, force: true });
    }
  }, 60_000);

  describe('azd preprovision hook', () => {
    const signIn = {
      AUTH_TENANT_ID: '72f988bf-86f1-41af-91ab-2d7cd011db47',
      AUTH_PORTAL_CLIENT_ID: '4a1aa1d5-c567-49d0-ad0b-cd957a47f842',
      AUTH_APP_CLIENT_ID: '9b2c6e1f-3d4a-4b5c-8d7e-0f1a2b3c4d5e',
    };
    const preprovision = (extra: Record<string, string>) =>
      runScript('sh', ['infra/azd/preprovision.sh'], checkout, env({ POSTGRES_ADMIN_PASSWORD: 'p', ...signIn, ...extra }));

    it('turns STAGING_INGEST_ENABLED=true and the replicas into the worker parameters', async () => {
      const result = await preprovision({ AZURE_ENV_NAME: 'staging', STAGING_INGEST_ENABLED: 'true', STAGING_INGEST_REPLICAS: '2' });
      expect(result).toMatchObject({ code: 0 });
      expect(calls()).toEqual([
        'env set INGEST_WORKER_ACTION start',
        'env set INGEST_WORKER_ENABLED true',
        'env set INGEST_WORKER_REPLICAS 2',
        // A first provision: no app yet, so the status record stays off.
        'env set INGEST_STATUS_ENABLED_DEPLOYED false',
      ]);
    });

    it('keeps the worker when STAGING_INGEST_ENABLED is unset, and on production whatever it says', async () => {
      expect(await preprovision({ AZURE_ENV_NAME: 'staging' })).toMatchObject({ code: 0 });
      expect(calls()[0]).toBe('env set INGEST_WORKER_ACTION keep');
      rmSync(path.join(checkout, 'calls.log'));
      expect(await preprovision({ AZURE_ENV_NAME: 'production', STAGING_INGEST_ENABLED: 'true' })).toMatchObject({ code: 0 });
      expect(calls()).toEqual([
        'env set INGEST_WORKER_ACTION keep',
        'env set INGEST_WORKER_ENABLED false',
        'env set INGEST_WORKER_REPLICAS 1',
        'env set INGEST_STATUS_ENABLED_DEPLOYED false',
      ]);
    });

    it('refuses the zero-GUID sign-in placeholder before anything is set', async () => {
      const result = await preprovision({ AZURE_ENV_NAME: 'staging', AUTH_TENANT_ID: '00000000-0000-0000-0000-000000000000' });
      expect(result.code).toBe(2);
      expect(result.output).toContain('AUTH_TENANT_ID is the zero-GUID placeholder');
      expect(existsSync(path.join(checkout, 'calls.log'))).toBe(false);
    });

    it('keeps SVC_INGEST_STATUS_ENABLED as the running app has it, whatever the azd environment says', async () => {
      const running = { functionAppName: 'func-scb-production-abc', AZURE_RESOURCE_GROUP: 'rg-scb-production' };
      fakeCommand(path.join(checkout, 'bin'), 'az', 'printf "%s\\n" "$*" >> "$FAKE_LOG"\necho true');
      try {
        const on = await preprovision({ AZURE_ENV_NAME: 'production', SVC_INGEST_STATUS_ENABLED: 'false', ...running });
        expect(on).toMatchObject({ code: 0 });
        expect(on.output).toContain('SVC_INGEST_STATUS_ENABLED in the azd environment is ignored');
        expect(calls()).toContain('env set INGEST_STATUS_ENABLED_DEPLOYED true');
      } finally {
        fakeCommand(path.join(checkout, 'bin'), 'az', 'printf "%s\\n" "$*" >> "$FAKE_LOG"\nexit 0');
      }
      rmSync(path.join(checkout, 'calls.log'));
      // Switched off by the gate: a provision with the variable set to true does not switch it on.
      expect(await preprovision({ AZURE_ENV_NAME: 'production', SVC_INGEST_STATUS_ENABLED: 'true', ...running })).toMatchObject({
        code: 0,
      });
      expect(calls()).toContain('env set INGEST_STATUS_ENABLED_DEPLOYED false');
    });

    it('refuses an azd environment named other than staging or production, and a missing database password', async () => {
      const named = await preprovision({ AZURE_ENV_NAME: 'dev' });
      expect(named.code).toBe(1);
      expect(named.output).toContain("The azd environment must be named staging or production (azd env new staging), not 'dev'.");
      const password = await runScript('sh', ['infra/azd/preprovision.sh'], checkout, env({ AZURE_ENV_NAME: 'staging' }));
      expect(password.code).toBe(1);
      expect(password.output).toContain('POSTGRES_ADMIN_PASSWORD is not set');
    });

    it('refuses an invalid STAGING_INGEST_REPLICAS, setting nothing', async () => {
      const result = await preprovision({ AZURE_ENV_NAME: 'staging', STAGING_INGEST_ENABLED: 'true', STAGING_INGEST_REPLICAS: '12' });
      expect(result.code).not.toBe(0);
      expect(result.output).toContain('STAGING_INGEST_REPLICAS must be a whole number from 1 to 8');
    });
  });

  describe('azd postprovision hook', () => {
    const postprovision = (action: string) =>
      runScript(
        'sh',
        ['infra/azd/postprovision.sh'],
        checkout,
        env({ INGEST_WORKER_ACTION: action, AZURE_RESOURCE_GROUP: 'rg-scb-staging', ingestWorkerName: 'ca-ingest-staging' }),
      );

    it('removes the worker when the plan is stop', async () => {
      expect(await postprovision('stop')).toMatchObject({ code: 0 });
      expect(calls()).toEqual([
        'containerapp show --resource-group rg-scb-staging --name ca-ingest-staging',
        'containerapp delete --yes --resource-group rg-scb-staging --name ca-ingest-staging',
      ]);
    });

    it.each(['keep', 'start'])('leaves it alone when the plan is %s', async (action) => {
      expect(await postprovision(action)).toMatchObject({ code: 0 });
      expect(() => calls()).toThrow();
    });
  });
});
