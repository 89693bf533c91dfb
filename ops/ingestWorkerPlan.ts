import type { CommandRun } from './command';

/**
 * What a staging deploy does with the dedicated ingest worker (a Container App, see
 * docs/decisions/008-staging-worker.md), from the deployment variables STAGING_INGEST_ENABLED and
 * STAGING_INGEST_REPLICAS, as the spec defines them: true starts the worker at this deploy with
 * the given replicas (default 1); false stops it and removes it with its old revisions; unset
 * asks nothing of this deploy, so a running worker stays as it is. Pure, so the rules are tested.
 */
export type IngestWorkerPlan = { action: 'start'; replicas: number } | { action: 'stop' } | { action: 'keep'; reason: string };

export const MAX_REPLICAS = 8;

export function planIngestWorker(enabled: string | undefined, replicas: string | undefined): IngestWorkerPlan {
  const flag = (enabled ?? '').trim().toLowerCase();
  if (flag === '') return { action: 'keep', reason: 'STAGING_INGEST_ENABLED is not set: the ingest worker is left as it is.' };
  if (flag !== 'true' && flag !== 'false') throw new Error(`STAGING_INGEST_ENABLED must be true or false, not "${enabled}"`);
  if (flag === 'false') return { action: 'stop' };
  const raw = (replicas ?? '').trim() || '1';
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > MAX_REPLICAS) {
    throw new Error(`STAGING_INGEST_REPLICAS must be a whole number from 1 to ${MAX_REPLICAS}, not "${replicas}"`);
  }
  return { action: 'start', replicas: Number(raw) };
}

/**
 * The plan as GitHub step outputs (`name=value` lines for $GITHUB_OUTPUT): `action`; `enabled`
 * and `replicas`, the Bicep parameters (the container app is declared only to start it; its
 * replicas parameter must be 1 to 8 even when it is not); `reason` when kept.
 */
export function stepOutputs(plan: IngestWorkerPlan): string {
  const lines = [`action=${plan.action}`, `enabled=${plan.action === 'start'}`, `replicas=${plan.action === 'start' ? plan.replicas : 1}`];
  if (plan.action === 'keep') lines.push(`reason=${plan.reason}`);
  return lines.join('\n');
}

/** `ingest:worker-plan <enabled> <replicas>`: the plan as step outputs. */
export const runIngestWorkerPlan: CommandRun = (args) => {
  console.log(stepOutputs(planIngestWorker(args[0], args[1])));
  return Promise.resolve(0);
};
