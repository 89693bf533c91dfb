import type { Sql } from '../db/client';
import type { HealthCheck } from '../health/health';
import { publicIngestHealth, readIngestHealth } from './health';
import type { IngestHealthSource } from './healthSource';

/**
 * The `ingest` component of GET /healthz: `unknown` while the status switch is off, or where the
 * worker ingests while none runs (neither makes the service down); `down` when the heartbeat of a
 * running runner is older than 3 minutes or the runner fails.
 * The reason goes to `detail`, which anonymous callers do not see.
 */
export function ingestCheck(sql: () => Sql, source: () => IngestHealthSource): HealthCheck {
  return {
    name: 'ingest',
    async check() {
      const { statusEnabled, runnerKind } = source();
      if (!statusEnabled) return { status: 'unknown' };
      const health = await readIngestHealth(sql(), { statusEnabled, runnerKind, detail: true });
      // Staging may run no worker at all (STAGING_INGEST_ENABLED false, or not rolled out yet): the
      // app is not down for that. /healthz/ingest still says down; a worker that runs and fails is down here too.
      if (runnerKind === 'worker' && health.runnerCount === 0) {
        return { ...publicIngestHealth(health), status: 'unknown', detail: 'no ingest worker runs in this environment now' };
      }
      const { status, statusReason } = health;
      return { ...publicIngestHealth(health), status, ...(statusReason ? { detail: statusReason } : {}) };
    },
  };
}
