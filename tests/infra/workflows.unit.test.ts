import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { lintWorkflows, type LintError } from './actionlint';
import { root } from './settingsSources';

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
    expect(workflowFiles).toEqual(expect.arrayContaining(['ci.yml', 'deploy-staging.yml', 'infra.yml', 'deploy-production.yml']));
  });

  it.each(workflowFiles)('%s has no findings', (file) => {
    const found = findings.get(`.github/workflows/${file}`) ?? [{ message: 'not linted', line: 0, column: 0, kind: 'missing' }];
    expect(found.map((finding) => `${file}:${finding.line}:${finding.column} ${finding.message} [${finding.kind}]`)).toEqual([]);
  });

  it('reports a broken workflow, so a clean result means something', () => {
    expect((findings.get('broken.yml') ?? []).map((finding) => finding.kind).sort()).toEqual(['expression', 'job-needs']);
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
    const check = job.indexOf('rolloutGates.ts ingest-status');
    const change = job.indexOf('az functionapp config appsettings set');
    expect(check).toBeGreaterThan(0);
    expect(change).toBeGreaterThan(check);
  });

  it('probes the sync endpoint after the release is live, before boxes enable the push', () => {
    expect(dependsOn(jobs, 'club-master-sync-check', 'deploy')).toBe(true);
    expect(source).toContain('rolloutGates.ts club-master-sync');
  });

  it('builds and tests on the Node.js version the production app runs', () => {
    const bicepParams = readFileSync(path.join(root, 'infra', 'env', 'production.bicepparam'), 'utf8');
    const appVersion = /^param nodeVersion = '(\d+)'$/m.exec(bicepParams)?.[1];
    const workflowVersions = [...source.matchAll(/node-version: (\d+)/g)].map((match) => match[1]);
    expect(appVersion).toBeDefined();
    expect(workflowVersions.length).toBeGreaterThan(0);
    expect(new Set(workflowVersions)).toEqual(new Set([appVersion]));
  });

  it('runs the Bicep compile and what-if on the hosted runner', () => {
    const infra = workflow('infra.yml');
    expect(source).toContain('uses: ./.github/workflows/infra.yml');
    expect(infra).toContain('az bicep build --file infra/main.bicep');
    expect(infra).toContain('az deployment sub what-if');
    expect(dependsOn(jobNeeds(infra), 'apply', 'what-if')).toBe(true);
  });
});
