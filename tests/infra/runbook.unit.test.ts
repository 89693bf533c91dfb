import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { COMMANDS } from '../../ops/commands';
import { DeadLetterBlockSchema } from '../../shared/ingest/deadLetterSchema';
import { IngestHealthSchema } from '../../shared/ingest/healthSchema';
import { root } from './settingsSources';

/**
 * docs/runbook-ingest.md is followed at 3 a.m.: every command it names must exist, every workflow
 * file it names must exist, and every health field it tells the operator to read must be a field
 * of GET /healthz/ingest.
 */
const runbook = readFileSync(path.join(root, 'docs', 'runbook-ingest.md'), 'utf8');
const scripts = Object.keys(
  (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts,
);

/** `npm run X`, also with npm's own flags before the script name (`npm run -s X`). */
export function npmScriptsNamed(text: string): string[] {
  return [...new Set([...text.matchAll(/npm run(?:\s+-{1,2}[a-z][\w-]*)*\s+([a-z][\w:.-]*)/g)].map((match) => match[1] ?? ''))];
}

/** `node dist/ops.js X`: the production commands of the bundle. */
export function opsCommandsNamed(text: string): string[] {
  return [...new Set([...text.matchAll(/node dist\/ops\.js\s+([a-z][\w:.-]*)/g)].map((match) => match[1] ?? ''))];
}

/** Workflow files: `.github/workflows/x.yml` paths and `gh workflow run x.yml`. */
export function workflowFilesNamed(text: string): string[] {
  const paths = [...text.matchAll(/\.github\/workflows\/([\w.-]+\.ya?ml)/g)].map((match) => match[1] ?? '');
  const runs = [...text.matchAll(/gh workflow run ([\w.-]+\.ya?ml)/g)].map((match) => match[1] ?? '');
  return [...new Set([...paths, ...runs])];
}

describe('docs/runbook-ingest.md', () => {
  it('names only npm scripts that package.json has and commands that dist/ops.js has', () => {
    const named = npmScriptsNamed(runbook);
    const commands = opsCommandsNamed(runbook);
    expect(named.length + commands.length).toBeGreaterThan(3);
    expect(named.filter((name) => !scripts.includes(name))).toEqual([]);
    expect(commands).toEqual(expect.arrayContaining(['ingest:backfill', 'ingest:backfill-shooters', 'migrate']));
    expect(commands.filter((name) => !COMMANDS.some((command) => command.name === name))).toEqual([]);
  });

  it('names only workflow files that exist', () => {
    const named = workflowFilesNamed(runbook);
    expect(named).toEqual(expect.arrayContaining(['deploy-staging.yml', 'replay-shooter-master-data.yml']));
    expect(named.filter((file) => !existsSync(path.join(root, '.github', 'workflows', file)))).toEqual([]);
  });

  it('tells the operator to read only fields GET /healthz/ingest (or the diagnostics deadLetters block) has', () => {
    // The members of `backfills` entries count as health fields too, and those of the dead-letter block.
    const backfill = IngestHealthSchema.entries.backfills.wrapped.item.entries;
    const deadLetter = DeadLetterBlockSchema.entries.recent.item.entries;
    const fields = new Set([
      ...Object.keys(IngestHealthSchema.entries),
      ...Object.keys(backfill),
      ...Object.keys(DeadLetterBlockSchema.entries),
      ...Object.keys(deadLetter),
    ]);
    // camelCase names in backticks; the few that are not health fields (the box's status, message headers) are named here.
    const elsewhere = new Set(['lastAction', 'sourceTopic', 'sourceClubId']);
    const named = [...new Set([...runbook.matchAll(/`([a-z]+[A-Z][A-Za-z]*)`/g)].map((match) => match[1] ?? ''))];
    expect(named.length).toBeGreaterThan(20);
    expect(named.filter((name) => !fields.has(name) && !elsewhere.has(name))).toEqual([]);
  });

  it('has a section for each state with what to read, what to do and what fixed looks like', () => {
    for (const state of ['Rejecting', 'Drift suspected', 'Quarantined', 'Stalled', 'Rollback']) {
      const start = runbook.search(new RegExp(`^## \\d\\. ${state}$`, 'm'));
      expect([state, start]).not.toEqual([state, -1]);
      const section = runbook.slice(start, runbook.indexOf('\n## ', start + 1));
      expect([
        state,
        section.includes('**Seen as:**') || state === 'Rollback',
        section.includes('**Do'),
        section.includes('**Fixed:**'),
      ]).toEqual([state, true, true, true]);
    }
  });

  it('the extraction finds commands in their usual forms', () => {
    expect(npmScriptsNamed('run `npm run migrate`, then npm run -s token -- --sub x and npm run ingest:backfill -- 1:2')).toEqual([
      'migrate',
      'token',
      'ingest:backfill',
    ]);
    expect(workflowFilesNamed('see .github/workflows/a.yml and gh workflow run b.yaml -f x=1')).toEqual(['a.yml', 'b.yaml']);
  });
});

describe('where the docs say the replay and the box sync run', () => {
  const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

  it("describe the replay where its workflow runs it: on the workflow's runner, not in a container", () => {
    const workflow = read('.github/workflows/replay-shooter-master-data.yml');
    expect(workflow).not.toMatch(/^\s+container:/m);
    expect(workflow).toMatch(/runs-on: ubuntu-latest/);
    for (const doc of ['docs/runbook-ingest.md', 'docs/decisions/007-production-commands.md']) {
      expect([doc, /one-off container/i.test(read(doc))]).toEqual([doc, false]);
    }
  });

  it('docs/club-master.md names only files of the repository that exist', () => {
    const named = [
      ...new Set(
        [...read('docs/club-master.md').matchAll(/`((?:shared|functions|edge|ops|infra|development|tests|workers)\/[\w./-]+\.\w+)`/g)].map(
          (match) => match[1] ?? '',
        ),
      ),
    ];
    expect(named.length).toBeGreaterThan(3);
    expect(named.filter((file) => !existsSync(path.join(root, file)))).toEqual([]);
  });
});
