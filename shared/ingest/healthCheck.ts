import type { Sql } from '../db/client';
import type { HealthCheck } from '../health/health';
import { publicIngestHealth, readIngestHealth } from './health';

/**
 * The `ingest` component of GET /healthz: `unknown` while the status switch is off (it does not
 * make the service down), `down` when the heartbeat is older than 3 minutes or the runner fails.
 * The reason goes to `detail`, which anonymous callers do not see.
 */
export function ingestCheck(sql: () => Sql, statusEnabled: () => boolean): HealthCheck {
  return {
    name: 'ingest',
    async check() {
      if (!statusEnabled()) return { status: 'unknown' };
      const health = await readIngestHealth(sql(), { statusEnabled: true, detail: true });
      const { status, statusReason } = health;
      return { ...publicIngestHealth(health), status, ...(statusReason ? { detail: statusReason } : {}) };
    },
  };
}
