import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { planIngestWorker, stepOutputs } from '../../ops/ingestWorkerPlan';
import { COMMANDS } from '../../ops/commands';
import { lintWorkflows, type LintError } from './actionlint';
import { developmentCalls, opsCommands } from './productionSteps';
import { root } from './settingsSources';
import { FAKE_SSH, fakeCommand, stepScript } from './workflowSteps';

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
    expect(called).toEqual(
      expect.arrayContaining(['migrate', 'freshness:check', 'rollout:gate', 'ingest:worker-plan', 'ingest:worker-params']),
    );
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

describe('the staging deploy: migrations first, then the app and the ingest worker', () => {
  const source = workflow('deploy-staging.yml');
  const jobs = jobNeeds(source);
  const jobText = (name: string) => {
    const start = source.indexOf(`\n  ${name}:\n`);
    const next = source.slice(start + 1).search(/\n {2}[\w-]+:\n/);
    return next === -1 ? source.slice(start) : source.slice(start, start + 1 + next);
  };

  it('runs the migrations after the build and before the app and the worker, which wait for their success', () => {
    expect(dependsOn(jobs, 'migrate', 'build')).toBe(true);
    expect(dependsOn(jobs, 'deploy', 'migrate')).toBe(true);
    expect(dependsOn(jobs, 'ingest-worker', 'migrate')).toBe(true);
    expect(jobText('migrate')).toContain('run: node dist/ops.js migrate');
    // Neither a job condition nor continue-on-error may let a later job run after a failed migration.
    for (const job of ['migrate', 'deploy', 'ingest-worker']) {
      expect([job, /^ {4}if:/m.test(jobText(job)), jobText(job).includes('continue-on-error')]).toEqual([job, false, false]);
    }
  });

  it('works out the worker plan from STAGING_INGEST_ENABLED and STAGING_INGEST_REPLICAS', () => {
    const job = jobText('ingest-worker');
    expect(job).toContain('ENABLED: ${{ vars.STAGING_INGEST_ENABLED }}');
    expect(job).toContain('REPLICAS: ${{ vars.STAGING_INGEST_REPLICAS }}');
    expect(job).toContain('node dist/ops.js ingest:worker-plan "$ENABLED" "$REPLICAS" >> "$GITHUB_OUTPUT"');
  });

  it('ships the connector configuration beside the box agent bundle', () => {
    expect(source).toContain('cp infra/connector/debezium-club-data.json dist/debezium-club-data.json');
    expect(source).toMatch(/path: \|\n\s+dist\/edge-agent\.js\*\n\s+dist\/debezium-club-data\.json/);
  });

  describe('the step that applies the plan on the staging host', () => {
    const script = stepScript(source, 'Apply it on the staging host');
    let dir: string;
    let release: string;
    beforeEach(() => {
      dir = mkdtempSync(path.join(os.tmpdir(), 'deploy-staging-'));
      release = path.join(dir, 'release');
      for (const file of ['compose.yaml', '.dockerignore', 'workers/Dockerfile', 'dist/ingest-worker.js', 'dist/ingest-worker.js.map']) {
        mkdirSync(path.dirname(path.join(release, file)), { recursive: true });
        writeFileSync(path.join(release, file), `${file}\n`);
      }
      fakeCommand(path.join(dir, 'bin'), 'ssh', FAKE_SSH);
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    /** The plan's outputs as the workflow passes them, then the step against the fake host. */
    function apply(enabled: string, replicas: string | undefined, host: { all?: string; running?: string }) {
      const outputs: Record<string, string> = {};
      for (const line of stepOutputs(planIngestWorker(enabled, replicas)).split('\n')) {
        outputs[line.slice(0, line.indexOf('='))] = line.slice(line.indexOf('=') + 1);
      }
      return runStep(script, release, {
        PATH: `${path.join(dir, 'bin')}:${process.env['PATH'] ?? ''}`,
        HOME: dir,
        SSH_KEY: 'test-key',
        SSH_TARGET: 'deploy@staging',
        COMMAND: outputs['command'] ?? '',
        ACTION: outputs['action'] ?? '',
        REPLICAS: outputs['replicas'] ?? '',
        SETTLE_SECONDS: '0',
        FAKE_LOG: path.join(dir, 'ssh.log'),
        FAKE_TAR: path.join(dir, 'tar.list'),
        FAKE_PS_ALL: host.all ?? '',
        FAKE_PS_RUNNING: host.running ?? '',
      });
    }
    const remote = () => readFileSync(path.join(dir, 'ssh.log'), 'utf8').trim().split('\n');
    const shipped = () => readFileSync(path.join(dir, 'tar.list'), 'utf8').trim().split('\n');

    it('false stops the worker, removes its containers and checks that none is left', async () => {
      const result = await apply('false', '3', {});
      expect(result.code).toBe(0);
      expect(shipped()).toEqual(['compose.yaml', '.dockerignore', 'workers/Dockerfile']);
      expect(remote()).toEqual([
        'mkdir -p /srv/shooting-club && tar -xf - -C /srv/shooting-club',
        'cd /srv/shooting-club && docker compose rm --stop --force ingest-worker',
        'cd /srv/shooting-club && docker compose ps --all --quiet ingest-worker',
      ]);
      expect(result.stdout).toContain('::notice title=Ingest worker stopped::');
    });

    it('fails when a worker container survives the stop', async () => {
      const result = await apply('false', undefined, { all: '3f2a9c\n' });
      expect(result.code).toBe(1);
      expect(result.stdout).toContain('::error title=Ingest worker not removed::1 ingest-worker container(s) still exist after the stop');
    });

    it('true starts one replica by default from this release and checks that it runs', async () => {
      const result = await apply('true', undefined, { running: 'a1b2c3\n' });
      expect(result.code).toBe(0);
      expect(shipped()).toEqual([
        'compose.yaml',
        '.dockerignore',
        'workers/Dockerfile',
        'dist/ingest-worker.js',
        'dist/ingest-worker.js.map',
      ]);
      expect(remote().slice(1)).toEqual([
        'cd /srv/shooting-club && docker compose up --detach --build --remove-orphans --scale ingest-worker=1 ingest-worker',
        'cd /srv/shooting-club && docker compose ps --status running --quiet ingest-worker',
      ]);
      expect(result.stdout).toContain('::notice title=Ingest worker running::1 ingest-worker container(s) running');
    });

    it('fails, with the worker log, when fewer containers run than planned', async () => {
      const result = await apply('true', '2', { running: 'a1b2c3\n' });
      expect(result.code).toBe(1);
      expect(remote()).toContain('cd /srv/shooting-club && docker compose logs --no-color --tail 50 ingest-worker');
      expect(result.stdout).toContain('::error title=Ingest worker not running::1 of 2 ingest-worker container(s) running');
    });
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

  describe('the one-off container', () => {
    const script = stepScript(source, 'Run the shooters backfill in a one-off backend container on the staging host');
    const shippedFiles = ['dist/ops.js', 'dist/ops.js.map', 'ops/replayShooters.sh'];
    let dir: string;
    let release: string;
    beforeEach(() => {
      dir = mkdtempSync(path.join(os.tmpdir(), 'replay-run-'));
      // The checkout after `npm run build`, with a file that must stay on the runner.
      release = path.join(dir, 'release');
      for (const file of [...shippedFiles, 'local.settings.sample.json', 'development/ops.ts']) {
        mkdirSync(path.dirname(path.join(release, file)), { recursive: true });
        writeFileSync(path.join(release, file), `${file}\n`);
      }
      fakeCommand(path.join(dir, 'bin'), 'ssh', FAKE_SSH);
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));
    const run = (dockerExit: string) =>
      runStep(script, release, {
        PATH: `${path.join(dir, 'bin')}:${process.env['PATH'] ?? ''}`,
        HOME: dir,
        SSH_KEY: 'test-key',
        SSH_TARGET: 'deploy@staging',
        CLUB_IDS: '4711 4712',
        GROUP_ID: 'shooting-club-shooter-backfill',
        NEW_GROUP: '--new-group',
        RUN_ID: '991',
        IMAGE: 'node:22-bookworm-slim',
        FAKE_LOG: path.join(dir, 'ssh.log'),
        FAKE_TAR: path.join(dir, 'tar.list'),
        FAKE_DOCKER_EXIT: dockerExit,
      });
    const remote = () => readFileSync(path.join(dir, 'ssh.log'), 'utf8').trim().split('\n');

    it('copies the command bundle to the host, runs the backfill script with the worker settings, then cleans up', async () => {
      const result = await run('0');
      expect(result.code).toBe(0);
      // The production bundle and its loop, nothing of the sources or the local settings.
      expect(readFileSync(path.join(dir, 'tar.list'), 'utf8').trim().split('\n')).toEqual(shippedFiles);
      expect(remote()).toEqual([
        'mkdir -p /srv/shooting-club/replay/991 && tar -xf - -C /srv/shooting-club/replay/991',
        "docker run --rm --init --name shooter-backfill-991 --user $(id -u):$(id -g) -e HOME=/tmp --env-file /srv/shooting-club/ingest-worker.env -e CLUB_IDS='4711 4712' -e GROUP_ID='shooting-club-shooter-backfill' -e NEW_GROUP='--new-group' -v /srv/shooting-club/replay/991:/app -w /app node:22-bookworm-slim sh ops/replayShooters.sh",
        'rm -rf /srv/shooting-club/replay/991',
      ]);
    }, 60_000);

    it('fails the run when the container fails, and still removes the copy', async () => {
      const result = await run('1');
      expect(result.code).toBe(1);
      expect(remote()[2]).toBe('rm -rf /srv/shooting-club/replay/991');
    }, 60_000);
  });

  describe('ops/replayShooters.sh inside the container', () => {
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
