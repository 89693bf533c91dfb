import { planIngestWorker } from './ingestWorkerPlan';

/**
 * The infrastructure parameters of the staging ingest worker container app, from the deployment
 * variables STAGING_INGEST_ENABLED and STAGING_INGEST_REPLICAS, with the same rules as the compose
 * plan (unset or false: no worker; replicas 1 to 8, default 1). Printed as `key=value` lines for
 * $GITHUB_OUTPUT.
 */
export interface IngestWorkerParams {
  enabled: boolean;
  replicas: number;
}

export function ingestWorkerParams(enabled: string | undefined, replicas: string | undefined): IngestWorkerParams {
  const plan = planIngestWorker(enabled, replicas);
  return plan.action === 'start' ? { enabled: true, replicas: plan.replicas } : { enabled: false, replicas: 1 };
}

if (require.main === module) {
  try {
    const params = ingestWorkerParams(process.argv[2], process.argv[3]);
    console.log(`enabled=${params.enabled}\nreplicas=${params.replicas}`);
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
}
