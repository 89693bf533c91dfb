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

/**
 * `service` may load the Tables SDK on its first call (functions/health.ts keeps it out of the cold
 * start); that load happens in `prepare`, outside the probe's deadline.
 */
export function storageCheck(service: () => TableServiceClient | Promise<TableServiceClient>): HealthCheck {
  let client: TableServiceClient | undefined;
  return {
    name: 'storage',
    async prepare() {
      client = await service();
    },
    async check() {
      client ??= await service();
      // Aborted with the health report's own deadline, so an unreachable account leaves no retries
      // of the SDK running in the background after the report has answered.
      await client.getProperties({ abortSignal: AbortSignal.timeout(STORAGE_CHECK_TIMEOUT_MS) });
      return { status: 'up' };
    },
  };
}
