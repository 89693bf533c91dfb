import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Command } from './command';

/**
 * What the staging deploy does with the dedicated ingest worker, from the deployment variables
 * STAGING_INGEST_ENABLED and STAGING_INGEST_REPLICAS and from what this release contains. Pure, so
 * the rules are tested; the workflow runs the command on the staging host, or skips with the
 * plan's reason (green) while there is nothing to run.
 */
export type IngestWorkerPlan =
  { action: 'start'; replicas: number; command: string } | { action: 'stop'; command: string } | { action: 'skip'; reason: string };

/** Files of this release the worker's deployment needs. */
export interface ReleaseFiles {
  /** compose.yaml, which defines the ingest-worker service. */
  composeFile: boolean;
  /** workers/ingest/main.ts, the worker's entry (bundled to dist/ingest-worker.js). */
  workerEntry: boolean;
}

export const COMPOSE_FILE = 'compose.yaml';
export const WORKER_ENTRY = 'workers/ingest/main.ts';

/**
 * `release` is what the checkout being deployed holds; ops/ingestWorkerParams.ts (the
 * container app's parameters) judges the variables alone and leaves it out.
 */
export function planIngestWorker(
  enabled: string | undefined,
  replicas: string | undefined,
  release: ReleaseFiles = { composeFile: true, workerEntry: true },
): IngestWorkerPlan {
  const flag = (enabled ?? '').trim().toLowerCase();
  if (flag === '') {
    return { action: 'skip', reason: 'STAGING_INGEST_ENABLED is not set: the ingest worker is left as it is.' };
  }
  if (flag !== 'true' && flag !== 'false') throw new Error(`STAGING_INGEST_ENABLED must be true or false, not "${enabled}"`);
  if (!release.composeFile) {
    return { action: 'skip', reason: `This release has no ${COMPOSE_FILE}, so there is no ingest worker to start or stop.` };
  }
  if (flag === 'false') {
    // Stopping also removes the old containers so a later start begins from the new image.
    return { action: 'stop', command: 'docker compose rm --stop --force ingest-worker' };
  }
  const raw = (replicas ?? '').trim() || '1';
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 8) {
    throw new Error(`STAGING_INGEST_REPLICAS must be a whole number from 1 to 8, not "${replicas}"`);
  }
  if (!release.workerEntry) {
    return { action: 'skip', reason: `The ingest worker is not in this release yet (no ${WORKER_ENTRY}); nothing was started.` };
  }
  const count = Number(raw);
  return {
    action: 'start',
    replicas: count,
    command: `docker compose up --detach --build --remove-orphans --scale ingest-worker=${count} ingest-worker`,
  };
}

/** The plan as GitHub step outputs (`name=value` lines for $GITHUB_OUTPUT). */
export function stepOutputs(plan: IngestWorkerPlan): string {
  const lines = [`action=${plan.action}`];
  if (plan.action === 'skip') lines.push(`reason=${plan.reason}`);
  else lines.push(`command=${plan.command}`);
  // The containers the deploy expects afterwards: it checks the host against this count.
  if (plan.action !== 'skip') lines.push(`replicas=${plan.action === 'start' ? plan.replicas : 0}`);
  return lines.join('\n');
}

/**
 * `ingest:worker-plan <enabled> <replicas>`: the plan as step outputs, judged against the release
 * checked out in the working directory (the workflow runs it from the checkout's root).
 */
export const ingestWorkerPlanCommand: Command = {
  name: 'ingest:worker-plan',
  usage: 'ingest:worker-plan <STAGING_INGEST_ENABLED> <STAGING_INGEST_REPLICAS>',
  run: (args) => {
    const root = process.cwd();
    const release = { composeFile: existsSync(path.join(root, COMPOSE_FILE)), workerEntry: existsSync(path.join(root, WORKER_ENTRY)) };
    console.log(stepOutputs(planIngestWorker(args[0], args[1], release)));
    return Promise.resolve(0);
  },
};
