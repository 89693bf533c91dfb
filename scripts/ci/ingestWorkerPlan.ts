/**
 * What the staging deploy does with the dedicated ingest worker, from the deployment variables
 * STAGING_INGEST_ENABLED and STAGING_INGEST_REPLICAS. Pure, so the rules are tested; the
 * workflow prints the plan and runs its command on the staging host.
 */
export type IngestWorkerPlan = { action: 'start'; replicas: number; command: string } | { action: 'stop'; command: string };

export function planIngestWorker(enabled: string | undefined, replicas: string | undefined): IngestWorkerPlan {
  const flag = (enabled ?? '').trim().toLowerCase();
  if (flag === '' || flag === 'false') {
    // Stopping also removes the old containers so a later start begins from the new image.
    return { action: 'stop', command: 'docker compose rm --stop --force ingest-worker' };
  }
  if (flag !== 'true') throw new Error(`STAGING_INGEST_ENABLED must be true or false, not "${enabled}"`);
  const raw = (replicas ?? '').trim() || '1';
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 8) {
    throw new Error(`STAGING_INGEST_REPLICAS must be a whole number from 1 to 8, not "${replicas}"`);
  }
  const count = Number(raw);
  return {
    action: 'start',
    replicas: count,
    command: `docker compose up --detach --remove-orphans --scale ingest-worker=${count} ingest-worker`,
  };
}

if (require.main === module) {
  try {
    const plan = planIngestWorker(process.argv[2], process.argv[3]);
    console.log(plan.command);
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
}
