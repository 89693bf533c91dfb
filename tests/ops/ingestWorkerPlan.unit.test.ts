import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { planIngestWorker, stepOutputs, WORKER_ENTRY } from '../../ops/ingestWorkerPlan';

const complete = { composeFile: true, workerEntry: true };

describe('staging ingest worker plan', () => {
  it.each([
    [undefined, undefined],
    ['', '3'],
    ['  ', undefined],
  ])('enabled=%p (unset) skips and leaves the worker as it is', (enabled, replicas) => {
    expect(planIngestWorker(enabled, replicas, complete)).toEqual({
      action: 'skip',
      reason: 'STAGING_INGEST_ENABLED is not set: the ingest worker is left as it is.',
    });
  });

  it.each([
    ['false', '2'],
    ['FALSE', undefined],
  ])('enabled=%p stops the worker and removes its containers', (enabled, replicas) => {
    expect(planIngestWorker(enabled, replicas, complete)).toEqual({
      action: 'stop',
      command: 'docker compose rm --stop --force ingest-worker',
    });
  });

  it('starts one replica by default and scales to the requested count, building the image from this release', () => {
    expect(planIngestWorker('true', undefined, complete)).toMatchObject({ action: 'start', replicas: 1 });
    const plan = planIngestWorker('true', '3', complete);
    expect(plan).toMatchObject({ action: 'start', replicas: 3 });
    expect(plan.action === 'start' && plan.command).toBe(
      'docker compose up --detach --build --remove-orphans --scale ingest-worker=3 ingest-worker',
    );
  });

  it('skips while the release has no worker or no compose file, instead of running docker compose', () => {
    expect(planIngestWorker('true', '1', { composeFile: true, workerEntry: false })).toEqual({
      action: 'skip',
      reason: 'The ingest worker is not in this release yet (no workers/ingest/main.ts); nothing was started.',
    });
    expect(planIngestWorker('true', '1', { composeFile: false, workerEntry: true })).toMatchObject({ action: 'skip' });
    expect(planIngestWorker('false', undefined, { composeFile: false, workerEntry: false })).toMatchObject({ action: 'skip' });
  });

  it.each([
    ['yes', '1', /STAGING_INGEST_ENABLED/],
    ['true', '0', /STAGING_INGEST_REPLICAS/],
    ['true', 'two', /STAGING_INGEST_REPLICAS/],
    ['true', '99', /STAGING_INGEST_REPLICAS/],
  ])('rejects enabled=%p replicas=%p', (enabled, replicas, message) => {
    expect(() => planIngestWorker(enabled, replicas, complete)).toThrow(message);
  });

  it('writes the plan as step outputs for the workflow', () => {
    expect(stepOutputs({ action: 'skip', reason: 'not yet' })).toBe('action=skip\nreason=not yet');
    expect(stepOutputs({ action: 'stop', command: 'docker compose rm --stop --force ingest-worker' })).toBe(
      'action=stop\ncommand=docker compose rm --stop --force ingest-worker\nreplicas=0',
    );
    expect(stepOutputs({ action: 'start', replicas: 1, command: 'docker compose up' })).toBe(
      'action=start\ncommand=docker compose up\nreplicas=1',
    );
  });

  it('as the workflow runs it, looks at this checkout: the worker entry is in this release, so it starts', async () => {
    const root = path.resolve(__dirname, '..', '..');
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [require.resolve('tsx/cli'), 'development/ops.ts', 'ingest:worker-plan', 'true', '2'],
      {
        cwd: root,
      },
    );
    expect(existsSync(path.join(root, WORKER_ENTRY))).toBe(true);
    expect(stdout.split('\n').slice(0, 2)).toEqual([
      'action=start',
      'command=docker compose up --detach --build --remove-orphans --scale ingest-worker=2 ingest-worker',
    ]);
  }, 30_000);
});
