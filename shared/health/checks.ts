import type { Sql } from '../db/client';
import type { TableServiceClient } from '@azure/data-tables';
import type { HealthCheck } from './health';

export function databaseCheck(sql: () => Sql): HealthCheck {
  return {
    name: 'database',
    async check() {
      await sql()`select 1`;
      return { status: 'up' };
    },
  };
}

/** evaluateHealth's default deadline. */
const STORAGE_CHECK_TIMEOUT_MS = 3_000;

export function storageCheck(service: () => TableServiceClient): HealthCheck {
  return {
    name: 'storage',
    async check() {
      // Aborted with the health report's own deadline, so an unreachable account leaves no retries
      // of the SDK running in the background after the report has answered.
      await service().getProperties({ abortSignal: AbortSignal.timeout(STORAGE_CHECK_TIMEOUT_MS) });
      return { status: 'up' };
    },
  };
}
