import type { Command } from './command';
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

/** `ingest:worker-params <enabled> <replicas>`: the parameters as `key=value` lines. */
export const ingestWorkerParamsCommand: Command = {
  name: 'ingest:worker-params',
  usage: 'ingest:worker-params <STAGING_INGEST_ENABLED> <STAGING_INGEST_REPLICAS>',
  run: (args) => {
    const params = ingestWorkerParams(args[0], args[1]);
    console.log(`enabled=${params.enabled}\nreplicas=${params.replicas}`);
    return Promise.resolve(0);
  },
};
