import type { Sql } from '../db/client';
import type { HealthCheck } from '../health/health';
import { publicIngestHealth, readIngestHealth } from './health';
import type { IngestHealthSource } from './healthSource';

/**
 * The `ingest` component of GET /healthz: `unknown` while the status switch is off (it does not
 * make the service down), `down` when the heartbeat is older than 3 minutes or the runner fails.
 * The reason goes to `detail`, which anonymous callers do not see.
 */
export function ingestCheck(sql: () => Sql, source: () => IngestHealthSource): HealthCheck {
  return {
    name: 'ingest',
    async check() {
      const { statusEnabled, runnerKind } = source();
      if (!statusEnabled) return { status: 'unknown' };
      const health = await readIngestHealth(sql(), { statusEnabled, runnerKind, detail: true });
      const { status, statusReason } = health;
      return { ...publicIngestHealth(health), status, ...(statusReason ? { detail: statusReason } : {}) };
    },
  };
}
