import type { Settings } from '../config/settings';
import type { RunnerStatusRow } from './statusRepository';

/** Whose status health reads, and whether it reads any (readIngestHealth's options). */
export interface IngestHealthSource {
  statusEnabled: boolean;
  runnerKind: RunnerStatusRow['runnerKind'];
}

/**
 * One runner ingests per environment, and health reads that one's status: on staging the
 * dedicated worker's (INGEST_RUNNER=worker), always, since the worker writes its status whatever
 * the function app's switch says; on production the Event Hubs function's, once the rollout gate
 * switched SVC_INGEST_STATUS_ENABLED on (until then `unknown`). A row of the other kind (a stray
 * heartbeat, a runner of a former setup) never speaks for the environment.
 */
export function ingestHealthSource(settings: Pick<Settings, 'INGEST_RUNNER' | 'SVC_INGEST_STATUS_ENABLED'>): IngestHealthSource {
  return settings.INGEST_RUNNER === 'worker'
    ? { statusEnabled: true, runnerKind: 'worker' }
    : { statusEnabled: settings.SVC_INGEST_STATUS_ENABLED, runnerKind: 'event' };
}
