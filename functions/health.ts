import { getSettings } from '../shared/config/settings';
import { getSql } from '../shared/db/client';
import { databaseCheck, storageCheck } from '../shared/health/checks';
import { evaluateHealth, HealthReportSchema, publicHealthView, type HealthCheck } from '../shared/health/health';
import { publicAccess } from '../shared/http/guards';
import { defineRoute, json } from '../shared/http/route';
import { defineGroup } from '../shared/host/definition';
import { declared } from './declarations';
import { ingestCheck } from '../shared/ingest/healthCheck';
import { ingestHealthSource } from '../shared/ingest/healthSource';
import { registerAzureSdk } from '../shared/telemetry/telemetry';
import { ingestHealthRoute } from './ingestHealth';
import { checkFreshness, FRESHNESS_RETRY_AFTER_SECONDS, FreshnessOverviewSchema } from '../shared/freshness/clubFreshness';
import { readClubSignals } from '../shared/freshness/freshnessRepository';

/**
 * The storage probe's Tables client, loaded on the first health request: the Tables SDK and its
 * HTTP stack are a large part of what the app would otherwise parse at a cold start
 * (development/build.mjs bundles shared/storage/tables.ts apart as dist/tablesSdk.js).
 */
const loadTableService = async () => {
  const tables = await import('../shared/storage/tables');
  registerAzureSdk(tables);
  return tables.tableService();
};

/**
 * The components behind GET /healthz. Composed here, where every area is in reach, so
 * shared/health knows none of them: an area with its own health (ingest) adds its check to this list.
 */
export function serviceHealthChecks(): HealthCheck[] {
  return [databaseCheck(getSql), storageCheck(loadTableService), ingestCheck(getSql, () => ingestHealthSource(getSettings()))];
}

export const healthFunctions = [
  defineGroup(declared.health, [
    defineRoute({
      method: 'GET',
      path: '/healthz',
      summary: 'Overall health with one entry per component; 503 names the failing ones',
      guard: publicAccess,
      response: HealthReportSchema,
      responses: { 503: { description: 'At least one component is down; `failing` names them', schema: HealthReportSchema } },
      async handle({ log }) {
        const report = await evaluateHealth(serviceHealthChecks());
        if (report.failing.length) log.warn('health_degraded', { failing: report.failing, components: report.components });
        return json(publicHealthView(report), report.status === 'ok' ? 200 : 503, { 'cache-control': 'no-store' });
      },
    }),
    ingestHealthRoute,
    defineRoute({
      method: 'GET',
      path: '/healthz/data-freshness',
      summary:
        'Data freshness over the active service clubs with a club number: status (ok, stale, unknown, error) and counts; 503 when the check failed',
      guard: publicAccess,
      response: FreshnessOverviewSchema,
      responses: {
        503: {
          description: 'The check itself failed (query failed, or an arrival lies in the future); the body is the result with status error',
          schema: FreshnessOverviewSchema,
          headers: { 'retry-after': `Seconds to wait before checking again (${FRESHNESS_RETRY_AFTER_SECONDS})` },
        },
      },
      async handle({ log }) {
        const overview = await checkFreshness(
          () => readClubSignals(getSql()),
          new Date(),
          (error) => log.warn('freshness_check_failed', { error }),
        );
        if (overview.status === 'error') {
          return json(overview, 503, { 'cache-control': 'no-store', 'retry-after': String(FRESHNESS_RETRY_AFTER_SECONDS) });
        }
        return json(overview, 200, { 'cache-control': 'no-store' });
      },
    }),
  ]),
];
