import type * as v from 'valibot';
import { functionDefinitions } from '../../functions/definitions';
import { SessionSchema } from '../../shared/auth/session';
import { AdoptResultSchema, CatalogPageSchema } from '../../shared/clubMaster/schemas';
import { CostBreakdownSchema, CostStatusSchema, CostSummarySchema, CostTimeseriesSchema } from '../../shared/costs/schemas';
import { DiagnosticsSummarySchema } from '../../shared/diagnostics/summarySchema';
import { InboxPageSchema } from '../../shared/notifications/responses';

/**
 * portal/src/types.ts types each answer the portal reads with a schema of shared/. These are the
 * schemas the routes declare as their response (and the OpenAPI document describes), so the
 * portal's types are the API's answers, not a copy of them.
 */
const PORTAL_READS: [method: string, path: string, schema: v.GenericSchema][] = [
  ['GET', '/api/me', SessionSchema],
  ['GET', '/api/admin/v1/costs/status', CostStatusSchema],
  ['GET', '/api/admin/v1/costs/summary', CostSummarySchema],
  ['GET', '/api/admin/v1/costs/breakdown', CostBreakdownSchema],
  ['GET', '/api/admin/v1/costs/timeseries', CostTimeseriesSchema],
  ['GET', '/api/admin/diagnostics/summary', DiagnosticsSummarySchema],
  ['GET', '/api/admin/clubs', CatalogPageSchema],
  ['POST', '/api/admin/clubs/adopt', AdoptResultSchema],
  ['GET', '/api/notifications', InboxPageSchema],
];

const routes = functionDefinitions.flatMap((definition) => (definition.kind === 'http' ? definition.routes : []));

describe('the API types of the portal', () => {
  it.each(PORTAL_READS)('%s %s answers with the schema the portal types it by', (method, path, schema) => {
    const route = routes.find((candidate) => candidate.method === method && candidate.path === path);
    expect(route).toBeDefined();
    expect(route?.response).toBe(schema);
  });
});
