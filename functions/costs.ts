import { defineGroup } from '../shared/host/definition';
import { declared } from './declarations';
import { requireCapability } from '../shared/http/guards';
import { defineRoute, json, type Route } from '../shared/http/route';
import { getCostService } from '../shared/costs/defaultService';
import {
  CostAccumulatedSchema,
  CostBreakdownSchema,
  CostCsvSchema,
  CostStatusSchema,
  CostSummarySchema,
  CostTimeseriesSchema,
  DaysQuerySchema,
} from '../shared/costs/schemas';
import type { CostService, Freshness } from '../shared/costs/service';
import type { Logger } from '../shared/log/logger';
import type * as v from 'valibot';

const guard = requireCapability('costs.read');
const PROVIDER_PROBLEMS = {
  502: {
    description:
      'The cost provider failed or refused; `code` is secret_expired, access_denied, provider_not_registered, provider_unavailable or provider_refused',
  },
  503: {
    description: '`code` not_configured (the cost credentials are not set), or rate_limited (with Retry-After)',
    headers: { 'retry-after': 'Seconds until the provider accepts requests again (rate_limited)' },
  },
};

const freshnessHeaders = (answer: Freshness) => ({
  'cache-control': 'private, no-store',
  'x-cost-as-of': answer.asOf,
  'x-cost-cached': String(answer.cached),
  'x-cost-stale': String(answer.stale),
});

type DaysQuery = v.InferOutput<typeof DaysQuerySchema>;

/** A GET of the provider's figures (or the service's cache of them), with how fresh they are. */
function figures(
  path: string,
  options: {
    summary: string;
    query?: typeof DaysQuerySchema;
    response: v.GenericSchema;
    read(log: Logger, query: DaysQuery): Promise<Freshness>;
  },
): Route {
  return defineRoute({
    method: 'GET',
    path,
    summary: options.summary,
    guard,
    query: options.query,
    response: options.response,
    responses: PROVIDER_PROBLEMS,
    async handle({ query, log }) {
      const answer = await options.read(log, query);
      return json(answer, 200, freshnessHeaders(answer));
    },
  });
}

/** The cost dashboard's routes over `service` (tests pass one with their own clock and provider). */
export function costRoutes(service: () => CostService = getCostService): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/api/admin/v1/costs/status',
      summary: 'Whether cost monitoring is configured (all four cost credentials set)',
      guard,
      response: CostStatusSchema,
      handle: () => Promise.resolve(json(service().status(), 200, { 'cache-control': 'private, no-store' })),
    }),
    figures('/api/admin/v1/costs/summary', {
      summary: 'Month to date, end-of-month forecast, last month, delta, and month to date per resource group against last month',
      response: CostSummarySchema,
      read: (log) => service().summary(log),
    }),
    figures('/api/admin/v1/costs/breakdown', {
      summary: 'Month to date per service with its percentage share',
      response: CostBreakdownSchema,
      read: (log) => service().breakdown(log),
    }),
    figures('/api/admin/v1/costs/timeseries', {
      summary: 'Daily cost of the last `days` days up to today (days 1..90, default 30), missing days as 0',
      query: DaysQuerySchema,
      response: CostTimeseriesSchema,
      read: (log, query) => service().timeseries(query.days, log),
    }),
    figures('/api/admin/v1/costs/accumulated', {
      summary:
        'The running month as a running total per day, with the forecast to month end, the budget, last month and the split by service and resource group',
      response: CostAccumulatedSchema,
      read: (log) => service().accumulated(log),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/admin/v1/costs/export.csv',
      summary: 'CSV download (date,resourceGroup,service,cost,currency) of the last `days` days (1..90, default 30)',
      guard,
      query: DaysQuerySchema,
      response: CostCsvSchema,
      responseType: 'text/csv',
      responses: PROVIDER_PROBLEMS,
      async handle({ query, log }) {
        const answer = await service().exportCsv(query.days, log);
        return {
          status: 200,
          body: answer.csv,
          headers: {
            ...freshnessHeaders(answer),
            'content-type': 'text/csv; charset=utf-8; header=present',
            'content-disposition': `attachment; filename="${answer.filename}"`,
          },
        };
      },
    }),
  ];
}

/** The costs endpoint group; tests hand in a service over the fake provider. */
export function costsFunction(service: () => CostService = getCostService) {
  return defineGroup(declared.costs, costRoutes(service));
}

export const costFunctions = [costsFunction()];
