import * as v from 'valibot';
import { pageLimit, pageOffset } from '../shared/paging/limit';
import { getSettings } from '../shared/config/settings';
import { getSql } from '../shared/db/client';
import { dataFreshnessBlock } from '../shared/freshness/diagnostics';
import { FRESHNESS_STATUSES } from '../shared/freshness/evaluation';
import { defineGroup } from '../shared/host/definition';
import { declared } from './declarations';
import { deadLetterBlock } from '../shared/ingest/deadLetterDiagnostics';
import { readIngestHealth } from '../shared/ingest/health';
import { ingestHealthSource } from '../shared/ingest/healthSource';
import { DiagnosticsSummarySchema } from '../shared/diagnostics/summarySchema';
import { platformAdmin } from '../shared/http/guards';
import { deliveryQueueSummary } from '../shared/notifications/outbox/deliveryLog';
import { boxPushBlock } from '../shared/portal/boxPushes';
import { clubsByNumber } from '../shared/portal/namedClubs';
import { statusBoard, type SummaryBlocks } from '../shared/diagnostics/statusBoard';
import { defineRoute, json } from '../shared/http/route';

const SummaryQuerySchema = v.object({
  /** Only the clubs with this freshness status. */
  status: v.optional(v.picklist(FRESHNESS_STATUSES, `must be one of ${FRESHNESS_STATUSES.join(', ')}`)),
  limit: pageLimit(200, 1000),
  offset: pageOffset(1_000_000),
});
type SummaryQuery = v.InferOutput<typeof SummaryQuerySchema>;

/**
 * The blocks of the diagnostics summary, each computed by its area: the ingest block with every
 * field (the caller is a platform admin, so with detail) and dataFreshness per club.
 */
const summaryBlocks = {
  ingest: (_query: SummaryQuery, now: Date) => readIngestHealth(getSql(), { ...ingestHealthSource(getSettings()), detail: true, now }),
  dataFreshness: (query: SummaryQuery, now: Date) => dataFreshnessBlock(getSql(), query, now),
  deadLetters: () => deadLetterBlock(getSql()),
  delivery: (_query: SummaryQuery, now: Date) => deliveryQueueSummary(getSql(), now),
  boxPushes: (_query: SummaryQuery, now: Date) => boxPushBlock(getSql(), now, getSettings().CLUB_MASTER_STALE_AFTER_HOURS),
};

async function composeSummary(query: SummaryQuery, now: Date): Promise<Record<string, unknown>> {
  const entries = await Promise.all(Object.entries(summaryBlocks).map(async ([name, block]) => [name, await block(query, now)] as const));
  const blocks = Object.fromEntries(entries) as Omit<SummaryBlocks, 'namedClubs'>;
  const namedClubs = await clubsByNumber(getSql(), [
    blocks.ingest.quarantineClubId,
    blocks.ingest.lastContractRejectClubId,
    ...(blocks.ingest.recentRejects ?? []).map((reject) => reject.clubId),
    ...blocks.deadLetters.recent.map((letter) => letter.clubId),
  ]);
  return { generatedAt: now.toISOString(), ...blocks, namedClubs, ...statusBoard({ ...blocks, namedClubs }, now) };
}

/** Admin diagnostics: the summary operators open after a red freshness run (incident rule 6). */
export const diagnosticsFunctions = [
  defineGroup(declared.diagnostics, [
    defineRoute({
      method: 'GET',
      path: '/api/admin/diagnostics/summary',
      summary:
        'Diagnostics summary (platform_admin): the ingest block with every field, dataFreshness per club, worst first, with the rule-6 hint, the ingest dead letters (pending count, newest 20), the notification delivery queue (depth and due rows in total and per channel, oldest due row, failures by reason in 24 h) and the clubs whose box pushes fail, one story per club and the open problems worst first; status filters, limit/offset page the clubs',
      guard: platformAdmin,
      query: SummaryQuerySchema,
      response: DiagnosticsSummarySchema,
      async handle({ query }) {
        return json(await composeSummary(query, new Date()), 200, { 'cache-control': 'no-store' });
      },
    }),
  ]),
];
