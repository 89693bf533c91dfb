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

/**
 * What anonymous callers see: statuses and timings, not error texts (those name internal hosts
 * and go to the log instead).
 */
export function publicHealthView(report: HealthReport): HealthReport {
  const components = Object.fromEntries(Object.entries(report.components).map(([name, { detail: _detail, ...rest }]) => [name, rest]));
  return { ...report, components };
}
