import { getSql } from '../db/client';
import { tableService } from '../storage/tables';
import { databaseCheck, storageCheck } from './checks';
import { evaluateHealth, type HealthCheck, type HealthReport } from './health';

/** The components behind GET /healthz. Areas with their own health (ingest) add theirs here. */
export function serviceHealthChecks(): HealthCheck[] {
  return [databaseCheck(getSql), storageCheck(tableService)];
}

export function checkServiceHealth(): Promise<HealthReport> {
  return evaluateHealth(serviceHealthChecks());
}
