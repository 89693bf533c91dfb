import * as v from 'valibot';
import { getSql } from '../shared/db/client';
import { dataFreshnessBlock, DataFreshnessBlockSchema } from '../shared/freshness/diagnostics';
import { FRESHNESS_STATUSES } from '../shared/freshness/evaluation';
import { httpGroup } from '../shared/host/definition';
import { platformAdmin } from '../shared/http/guards';
import { defineRoute, json } from '../shared/http/route';

const pageNumber = (fallback: number, min: number, max: number) =>
  v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,7}$/, `must be a whole number from ${min} to ${max}`),
      v.transform(Number),
      v.minValue(min, `must be a whole number from ${min} to ${max}`),
      v.maxValue(max, `must be a whole number from ${min} to ${max}`),
    ),
    String(fallback),
  );

const SummaryQuerySchema = v.object({
  /** Only the clubs with this freshness status. */
  status: v.optional(v.picklist(FRESHNESS_STATUSES, `must be one of ${FRESHNESS_STATUSES.join(', ')}`)),
  limit: pageNumber(200, 1, 1000),
  offset: pageNumber(0, 0, 1_000_000),
});
type SummaryQuery = v.InferOutput<typeof SummaryQuerySchema>;

/**
 * The blocks of the diagnostics summary, each computed by its area. The composition point: the
 * ingest area adds its block here as one more entry (`ingest: () => <ingest health block>`), and
 * SummarySchema gains the matching member.
 */
const summaryBlocks = {
  dataFreshness: (query: SummaryQuery, now: Date) => dataFreshnessBlock(getSql(), query, now),
};

const SummarySchema = v.object({
  generatedAt: v.string(),
  dataFreshness: DataFreshnessBlockSchema,
});

async function composeSummary(query: SummaryQuery, now: Date): Promise<Record<string, unknown>> {
  const entries = await Promise.all(Object.entries(summaryBlocks).map(async ([name, block]) => [name, await block(query, now)] as const));
  return { generatedAt: now.toISOString(), ...Object.fromEntries(entries) };
}

/** Admin diagnostics: the summary operators open after a red freshness run (incident rule 6). */
export const diagnosticsFunctions = [
  httpGroup('diagnostics', 'api/admin/diagnostics', [
    defineRoute({
      method: 'GET',
      path: '/api/admin/diagnostics/summary',
      summary:
        'Diagnostics summary (platform_admin): dataFreshness per club, worst first, with the rule-6 hint; status filters, limit/offset page the clubs',
      guard: platformAdmin,
      query: SummaryQuerySchema,
      response: SummarySchema,
      async handle({ query }) {
        return json(await composeSummary(query, new Date()), 200, { 'cache-control': 'no-store' });
      },
    }),
  ]),
];
