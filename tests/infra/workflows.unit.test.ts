import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { COMMANDS } from '../../ops/commands';
import { lintWorkflows, type LintError } from './actionlint';
import { developmentCalls, opsCommands } from './productionSteps';
import { root } from './settingsSources';
import { fakeCommand, stepScript } from './workflowSteps';

const workflowDir = path.join(root, '.github', 'workflows');
const workflowFiles = readdirSync(workflowDir).filter((file) => /\.ya?ml$/.test(file));
const workflow = (file: string) => readFileSync(path.join(workflowDir, file), 'utf8');

/** Job name -> the jobs it names under `needs:` (enough of YAML for the workflows here). */
function jobNeeds(source: string): Map<string, string[]> {
  const jobs = new Map<string, string[]>();
  const body = source.slice(source.indexOf('\njobs:\n'));
  let current: string | undefined;
  for (const line of body.split('\n')) {
    const job = /^ {2}([\w-]+):\s*$/.exec(line);
    if (job?.[1]) {
      current = job[1];
      jobs.set(current, []);
      continue;
    }
    const needs = /^ {4}needs:\s*(.+)$/.exec(line);
    if (current && needs?.[1])
      jobs.set(
        current,
        needs[1]
          .replace(/[[\]\s]/g, '')
          .split(',')
          .filter(Boolean),
      );
  }
  return jobs;
}

function dependsOn(jobs: Map<string, string[]>, job: string, earlier: string): boolean {
  const direct = jobs.get(job) ?? [];
  return direct.includes(earlier) || direct.some((need) => dependsOn(jobs, need, earlier));
}

describe('GitHub workflows pass actionlint', () => {
  const broken = [
    'on: push',
    'jobs:',
    '  test:',
    '    runs-on: ubuntu-latest',
    '    needs: nowhere',
    '    steps:',
    '      - run: echo ${{ github.nope }}',
    '',
  ];
  let findings: Map<string, LintError[]>;
  beforeAll(async () => {
    const files = workflowFiles.map((file) => ({ path: `.github/workflows/${file}`, source: workflow(file) }));
    findings = await lintWorkflows([...files, { path: 'broken.yml', source: broken.join('\n') }]);
    // Compiling the wasm module takes a few CPU seconds; on a busy machine much longer.
  }, 120_000);

  it('finds the workflows', () => {
    expect(workflowFiles).toEqual(
      expect.arrayContaining(['ci.yml', 'deploy-staging.yml', 'infra.yml', 'deploy-production.yml', 'replay-shooter-master-data.yml']),
    );
  });

  it.each(workflowFiles)('%s has no findings', (file) => {
    const found = findings.get(`.github/workflows/${file}`) ?? [{ message: 'not linted', line: 0, column: 0, kind: 'missing' }];
    expect(found.map((finding) => `${file}:${finding.line}:${finding.column} ${finding.message} [${finding.kind}]`)).toEqual([]);
  });

  it('reports a broken workflow, so a clean result means something', () => {
    expect((findings.get('broken.yml') ?? []).map((finding) => finding.kind).sort()).toEqual(['expression', 'job-needs']);
  });
});

describe('workflows run production commands from the bundle, never development tooling', () => {
  it.each(workflowFiles)('%s calls no tsx, no development/ file and no npm script with local fall-backs', (file) => {
    expect(developmentCalls(workflow(file))).toEqual([]);
  });

  it('would see a production step that calls development tooling', () => {
    const steps = [
      '      - run: npm run migrate',
      '      - run: npm run --silent ingest:backfill-shooters -- 4711',
      '      - run: npx tsx ops/rolloutGates.ts club-master-sync "$BASE_URL"',
      '      - run: node development/ops.ts migrate',
      '      # npm run migrate is what this comment mentions, not runs',
      '      - run: npm run build',
      '      - run: node dist/ops.js migrate',
    ];
    expect(developmentCalls(steps.join('\n')).map((line) => Number(line.split(':')[0]))).toEqual([1, 2, 3, 4]);
  });

  it('names only commands the bundle has, each after the build of its job', () => {
    const known = COMMANDS.map((command) => command.name);
    const called = workflowFiles.flatMap((file) => opsCommands(workflow(file)));
    expect(called).toEqual(expect.arrayContaining(['migrate', 'freshness:check', 'rollout:gate', 'ingest:worker-plan']));
    expect(called.filter((name) => !known.includes(name))).toEqual([]);
    for (const file of workflowFiles) {
      const source = workflow(file);
      const jobsText = source.slice(source.indexOf('\njobs:\n'));
      for (const job of jobsText.split(/\n(?= {2}[\w-]+:\n)/).slice(1)) {
        const firstCall = job.search(/dist\/ops\.js/);
        if (firstCall === -1) continue;
        const build = job.indexOf('run: npm run build');
        expect([file, job.split('\n')[0], build !== -1 && build < firstCall]).toEqual([file, job.split('\n')[0], true]);
      }
    }
  });
});

describe('the production deploy follows the rollout orders', () => {
  const source = workflow('deploy-production.yml');
  const jobs = jobNeeds(source);

  it('builds, deploys infrastructure, migrates and only then deploys the package', () => {
    expect(dependsOn(jobs, 'infrastructure', 'build')).toBe(true);
    expect(dependsOn(jobs, 'migrate', 'infrastructure')).toBe(true);
    expect(dependsOn(jobs, 'deploy', 'migrate')).toBe(true);
  });

  it('switches SVC_INGEST_STATUS_ENABLED only after the release is live and the runnerKind check passed', () => {
    expect(dependsOn(jobs, 'ingest-status-switch', 'deploy')).toBe(true);
    const job = source.slice(source.indexOf('\n  ingest-status-switch:'), source.indexOf('\n  club-master-sync-check:'));
    const check = job.indexOf('node dist/ops.js rollout:gate ingest-status');
    const change = job.indexOf('az functionapp config appsettings set');
    expect(check).toBeGreaterThan(0);
    expect(change).toBeGreaterThan(check);
  });

  it('probes the sync endpoint after the release is live, before boxes enable the push', () => {
    expect(dependsOn(jobs, 'club-master-sync-check', 'deploy')).toBe(true);
    expect(source).toContain('node dist/ops.js rollout:gate club-master-sync');
  });

  it('builds and tests on the Node.js version the production app runs', () => {
    // The app's runtime is the major of .nvmrc (infra/main.bicep reads it); tests/infra/nodeRuntime.unit.test.ts.
    const workflowSetups = [...source.matchAll(/node-version(-file)?: ([^,}\n]+)/g)].map((match) => match[0]);
    expect(workflowSetups.length).toBeGreaterThan(0);
    expect(new Set(workflowSetups)).toEqual(new Set(['node-version-file: .nvmrc']));
    expect(readFileSync(path.join(root, 'infra', 'main.bicep'), 'utf8')).toContain("loadTextContent('../.nvmrc')");
  });

  it('runs the Bicep compile and what-if on the hosted runner', () => {
    const infra = workflow('infra.yml');
    expect(source).toContain('uses: ./.github/workflows/infra.yml');
    expect(infra).toContain('az bicep build --file infra/main.bicep');
    expect(infra).toContain('az deployment sub what-if');
    expect(dependsOn(jobNeeds(infra), 'apply', 'what-if')).toBe(true);
  });
});

/** Runs a workflow step's script with bash: the given environment over PATH, in `cwd`. */
function runStep(script: string, cwd: string, env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile('bash', ['-eo', 'pipefail', '-c', script], { cwd, env, timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
    child.stdin?.end();
  });
}

/** The step outputs a script wrote to $GITHUB_OUTPUT. */
const outputsOf = (file: string) =>
  Object.fromEntries(
    readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );

describe('the staging deploy: infrastructure, migrations, then the app and the ingest worker', () => {
  const source = workflow('deploy-staging.yml');
  const infra = workflow('infra.yml');
  const jobs = jobNeeds(source);
  const jobText = (name: string) => {
    const start = source.indexOf(`\n  ${name}:\n`);
    const next = source.slice(start + 1).search(/\n {2}[\w-]+:\n/);
    return next === -1 ? source.slice(start) : source.slice(start, start + 1 + next);
  };

  it('deploys the infrastructure, then runs the migrations before the app and the worker, which wait for their success', () => {
    expect(dependsOn(jobs, 'infrastructure', 'build')).toBe(true);
    expect(dependsOn(jobs, 'migrate', 'infrastructure')).toBe(true);
    expect(dependsOn(jobs, 'deploy', 'migrate')).toBe(true);
    expect(dependsOn(jobs, 'ingest-worker', 'migrate')).toBe(true);
    expect(jobText('migrate')).toContain('node dist/ops.js migrate');
    // Neither a job condition nor continue-on-error may let a later job run after a failed migration.
    for (const job of ['migrate', 'deploy', 'ingest-worker']) {
      expect([job, /^ {4}if:/m.test(jobText(job)), jobText(job).includes('continue-on-error')]).toEqual([job, false, false]);
    }
  });

  it('works out the worker plan from STAGING_INGEST_ENABLED and STAGING_INGEST_REPLICAS, on staging only', () => {
    expect(infra).toContain("ENABLED: ${{ inputs.environment == 'staging' && vars.STAGING_INGEST_ENABLED || '' }}");
    expect(infra).toContain('REPLICAS: ${{ vars.STAGING_INGEST_REPLICAS }}');
    expect(infra).toContain('run: node dist/ops.js ingest:worker-plan "$ENABLED" "$REPLICAS" >> "$GITHUB_OUTPUT"');
    expect(infra).toContain('INGEST_WORKER_ENABLED: ${{ needs.what-if.outputs.worker-enabled }}');
    expect(infra).toContain('INGEST_WORKER_REPLICAS: ${{ needs.what-if.outputs.worker-replicas }}');
  });

  it('removes the worker only when the plan says stop, never when STAGING_INGEST_ENABLED is unset', () => {
    const removal = infra.slice(infra.indexOf('- name: Remove the ingest worker when STAGING_INGEST_ENABLED is false'));
    expect(removal).toMatch(/^\s+if: needs\.what-if\.outputs\.worker-action == 'stop'$/m);
    expect(removal).toContain('az resource delete --resource-group "$GROUP" --name "$WORKER" --resource-type Microsoft.App/containerApps');
  });

  it('keeps the running worker image when the infrastructure is deployed, so only the rollout changes it', () => {
    expect(infra).toContain("--query 'properties.template.containers[0].image'");
    expect(infra).toContain('INGEST_WORKER_IMAGE: ${{ needs.what-if.outputs.worker-image }}');
    expect(infra).not.toContain('vars.INGEST_WORKER_IMAGE');
  });

  it('builds the worker image of this release, pushes it to the registry and rolls the app to it', () => {
    const job = jobText('ingest-worker');
    expect(job).toContain('ACTION: ${{ needs.infrastructure.outputs.worker-action }}');
    expect(job).toContain('az acr login --name "${REGISTRY%%.*}"');
    expect(job).toContain('docker build --file workers/Dockerfile --build-arg BUNDLE=ingest-worker');
    expect(job).toContain('--build-arg "NODE_VERSION=$(cat .nvmrc)"');
    expect(job).toContain('docker push "$image"');
    expect(job).toContain('az containerapp update --resource-group "$GROUP" --name "$WORKER" --image "$IMAGE"');
    expect(job.indexOf('docker push')).toBeLessThan(job.indexOf('az containerapp update'));
  });

  it('has no second worker path: no SSH host, no compose file', () => {
    for (const file of workflowFiles) expect([file, /\bssh\b|docker compose|STAGING_SSH/i.test(workflow(file))]).toEqual([file, false]);
  });

  describe('the step that checks the rolled-out replicas', () => {
    const script = stepScript(source, 'Roll the worker to it and check that the planned replicas run');
    let dir: string;
    beforeEach(() => {
      dir = mkdtempSync(path.join(os.tmpdir(), 'deploy-staging-'));
      // A fake az: logs each call, answers the replica count from $FAKE_RUNNING.
      fakeCommand(
        path.join(dir, 'bin'),
        'az',
        'printf "%s\\n" "$*" >> "$FAKE_LOG"\ncase "$*" in *"replica list"*) printf "%s\\n" "${FAKE_RUNNING:-0}" ;; esac\nexit 0',
      );
      fakeCommand(path.join(dir, 'bin'), 'sleep', 'exit 0');
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));
    const run = (running: string) =>
      runStep(script, dir, {
        PATH: `${path.join(dir, 'bin')}:${process.env['PATH'] ?? ''}`,
        GROUP: 'rg-scb-staging',
        WORKER: 'ca-ingest-staging',
        IMAGE: 'crscbstag.azurecr.io/ingest-worker:abc123',
        REPLICAS: '2',
        SETTLE_SECONDS: '0',
        FAKE_LOG: path.join(dir, 'az.log'),
        FAKE_RUNNING: running,
      });
    const calls = () => readFileSync(path.join(dir, 'az.log'), 'utf8').trim().split('\n');

    it('rolls to the image and passes once the planned replicas run', async () => {
      const result = await run('2');
      expect(result.code).toBe(0);
      expect(calls()[0]).toBe(
        'containerapp update --resource-group rg-scb-staging --name ca-ingest-staging --image crscbstag.azurecr.io/ingest-worker:abc123',
      );
      expect(result.stdout).toContain('::notice title=Ingest worker running::2 replica(s) of crscbstag.azurecr.io/ingest-worker:abc123');
    });

    it('fails, with the worker log, when fewer replicas run than planned', async () => {
      const result = await run('1');
      expect(result.code).toBe(1);
      expect(calls()).toContain('containerapp logs show --resource-group rg-scb-staging --name ca-ingest-staging --tail 50 --format text');
      expect(result.stdout).toContain('::error title=Ingest worker not running::1 of 2 replica(s) running');
    }, 30_000);
  });

  it('ships the connector configuration beside the box agent bundle', () => {
    expect(source).toContain('cp infra/connector/debezium-club-data.json dist/debezium-club-data.json');
    expect(source).toMatch(/path: \|\n\s+dist\/edge-agent\.js\*\n\s+dist\/debezium-club-data\.json/);
  });
});

describe('the Replay Shooter Master Data workflow', () => {
  const source = workflow('replay-shooter-master-data.yml');

  it('is started by hand with club_ids, group_id (default <service>-shooter-backfill) and fresh_group', () => {
    const service = /tags = \{ app: '([^']+)'/.exec(readFileSync(path.join(root, 'infra', 'main.bicep'), 'utf8'))?.[1];
    expect(service).toBe('shooting-club');
    const on = source.slice(source.indexOf('\non:\n'), source.indexOf('\nconcurrency:'));
    expect(on).not.toMatch(/\n {2}(push|schedule|pull_request)/);
    expect(on).toMatch(/club_ids:\n(\s+.+\n)*?\s+required: true/);
    expect(on).toMatch(new RegExp(`group_id:\\n(\\s+.+\\n)*?\\s+default: ${service}-shooter-backfill\\n`));
    expect(on).toMatch(/fresh_group:\n(\s+.+\n)*?\s+type: boolean\n\s+default: false/);
  });

  describe('input check', () => {
    const script = stepScript(source, 'Check the inputs');
    let dir: string;
    beforeEach(() => {
      dir = mkdtempSync(path.join(os.tmpdir(), 'replay-inputs-'));
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));
    const check = async (inputs: { CLUB_IDS: string; GROUP_ID?: string; FRESH_GROUP?: string }) => {
      const output = path.join(dir, 'output');
      writeFileSync(output, '');
      const result = await runStep(script, dir, {
        PATH: process.env['PATH'] ?? '',
        GITHUB_OUTPUT: output,
        GROUP_ID: 'shooting-club-shooter-backfill',
        FRESH_GROUP: 'false',
        ...inputs,
      });
      return { ...result, outputs: outputsOf(output) };
    };

    it('takes club ids separated by commas or spaces, once each, and the group as given', async () => {
      const result = await check({ CLUB_IDS: ' 4711, 4712 4711,,\n815 ' });
      expect(result.code).toBe(0);
      expect(result.outputs).toEqual({ club_ids: '4711 4712 815', group_id: 'shooting-club-shooter-backfill', new_group: '' });
    });

    it('turns fresh_group true into --new-group', async () => {
      const result = await check({ CLUB_IDS: '4711', GROUP_ID: 'ops.replay-2026_03', FRESH_GROUP: 'true' });
      expect(result.outputs).toEqual({ club_ids: '4711', group_id: 'ops.replay-2026_03', new_group: '--new-group' });
    });

    it.each([
      ['47a1', 'club_ids', '"47a1" is not a club id (digits only)'],
      ['-1', 'club_ids', '"-1" is not a club id'],
      ['4711 $(reboot)', 'club_ids', '"??reboot?" is not a club id'],
      ['*', 'club_ids', '"?" is not a club id'],
      [' , ', 'club_ids', 'name at least one club id'],
      [Array.from({ length: 51 }, (_, index) => String(index + 1)).join(' '), 'club_ids', 'at most 50 clubs per run'],
    ])('refuses club_ids %p', async (clubIds, input, message) => {
      const result = await check({ CLUB_IDS: clubIds });
      expect(result.code).toBe(1);
      expect(result.stdout).toContain(`::error title=Invalid ${input}::${message}`);
      expect(result.outputs).toEqual({});
    });

    it.each([['bad group'], ['-starts-with-dash'], ['x'.repeat(51)], ["g';rm -rf /'"]])('refuses group_id %p', async (group) => {
      const result = await check({ CLUB_IDS: '4711', GROUP_ID: group });
      expect(result.code).toBe(1);
      expect(result.stdout).toContain('::error title=Invalid group_id::');
      expect(result.outputs).toEqual({});
    });
  });

  it('runs on the runner with the deployer login and the staging outputs, through Entra ID, the firewall closed afterwards', () => {
    const step = source.slice(source.indexOf('- name: Run the shooters backfill of each club'));
    expect(step).toContain('INGEST_EVENTHUB_CONNECTION__fullyQualifiedNamespace: ${{ steps.staging.outputs.namespace }}');
    expect(step).toContain('AzureWebJobsStorage__accountName: ${{ steps.staging.outputs.storage }}');
    expect(step).toContain('sh ops/replayShooters.sh');
    expect(step).not.toMatch(/INGEST_EVENTHUB_CONNECTION:|AzureWebJobsStorage:/);
    expect(source).toContain('az deployment sub show --name scb-staging');
    expect(source.indexOf('Close the database firewall again')).toBeGreaterThan(source.indexOf('Run the shooters backfill of each club'));
    expect(source).toMatch(/Close the database firewall again\n\s+if: always\(\)/);
  });

  describe('ops/replayShooters.sh', () => {
    let dir: string;
    beforeEach(() => {
      dir = mkdtempSync(path.join(os.tmpdir(), 'replay-script-'));
      // A fake node: logs its arguments, fails the backfill of the club in FAKE_FAIL_CLUB.
      fakeCommand(
        path.join(dir, 'bin'),
        'node',
        'printf "%s\\n" "$*" >> "$FAKE_LOG"\nif [ "$3" = "${FAKE_FAIL_CLUB:-none}" ]; then exit 3; fi\nexit 0',
      );
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));
    const run = (env: Record<string, string>) =>
      runStep(`sh ${path.join(root, 'ops', 'replayShooters.sh')}`, dir, {
        PATH: `${path.join(dir, 'bin')}:${process.env['PATH'] ?? ''}`,
        FAKE_LOG: path.join(dir, 'node.log'),
        GROUP_ID: 'shooting-club-shooter-backfill',
        NEW_GROUP: '',
        ...env,
      });
    const calls = () => readFileSync(path.join(dir, 'node.log'), 'utf8').trim().split('\n');

    it('runs the bundled shooters backfill per club with the group, installing nothing', async () => {
      const result = await run({ CLUB_IDS: '4711 4712' });
      expect(result.code).toBe(0);
      expect(calls()).toEqual([
        'dist/ops.js ingest:backfill-shooters 4711 --group=shooting-club-shooter-backfill',
        'dist/ops.js ingest:backfill-shooters 4712 --group=shooting-club-shooter-backfill',
      ]);
    });

    it('passes --new-group for a fresh replay, runs the other clubs after a failure and fails at the end', async () => {
      const result = await run({ CLUB_IDS: '4711 4712 815', NEW_GROUP: '--new-group', FAKE_FAIL_CLUB: '4712' });
      expect(result.code).toBe(1);
      expect(calls()).toEqual([
        'dist/ops.js ingest:backfill-shooters 4711 --group=shooting-club-shooter-backfill --new-group',
        'dist/ops.js ingest:backfill-shooters 4712 --group=shooting-club-shooter-backfill --new-group',
        'dist/ops.js ingest:backfill-shooters 815 --group=shooting-club-shooter-backfill --new-group',
      ]);
      expect(result.stdout).toContain('::error title=Shooters backfill failed::club 4712');
      expect(result.stdout).toContain('Shooters backfill failed for club(s): 4712');
    });
  });
});
