/**
 * The API's answers as the portal reads them: the types of the valibot schemas the routes declare
 * (the same ones the OpenAPI document is built from). Type-only imports: esbuild drops them, so
 * no server code reaches the bundle (tests/portal/bundleContents.test.ts checks the metafile).
 */
import type * as v from 'valibot';
import type { SessionSchema } from '../../shared/auth/session';
import type { AdoptResultSchema, CatalogEntrySchema, CatalogPageSchema } from '../../shared/clubMaster/schemas';
import type {
  CostAccumulatedSchema,
  CostBreakdownSchema,
  CostStatusSchema,
  CostSummarySchema,
  CostTimeseriesSchema,
} from '../../shared/costs/schemas';
import type { DiagnosticsSummarySchema } from '../../shared/diagnostics/summarySchema';
import type { DataFreshnessEntrySchema } from '../../shared/freshness/diagnosticsSchema';
import type { IngestHealthSchema } from '../../shared/ingest/healthSchema';
import type { InboxPageSchema, NotificationRecordSchema } from '../../shared/notifications/responses';
import type { DeliveryQueueBlock } from '../../shared/notifications/outbox/deliveryQueueSchema';
import type { BoxPushBlock } from '../../shared/portal/boxPushSchema';

export type { ClubOverview } from '../../shared/portal/clubOverviewSchema';
export type { ClubStoryView, ProblemView } from '../../shared/portal/statusBoardSchema';
export type { BoxPushBlock, DeliveryQueueBlock };

export type Session = v.InferOutput<typeof SessionSchema>;
export type Capability = Session['capabilities'][number];

export type CostStatus = v.InferOutput<typeof CostStatusSchema>;
export type CostSummary = v.InferOutput<typeof CostSummarySchema>;
export type CostBreakdown = v.InferOutput<typeof CostBreakdownSchema>;
export type CostTimeseries = v.InferOutput<typeof CostTimeseriesSchema>;
export type CostAccumulated = v.InferOutput<typeof CostAccumulatedSchema>;
/** What every cost answer says about its own age. */
export type Freshness = Pick<CostSummary, 'asOf' | 'cached' | 'stale'>;
export type Delta = CostSummary['deltaToLastMonth'];

/**
 * The page lists every field of the block, also one this build does not know yet (a newer API
 * behind an older cached portal), so it reads the block as a record as well.
 */
export type IngestHealth = v.InferOutput<typeof IngestHealthSchema> & Record<string, unknown>;
export type ClubFreshness = v.InferOutput<typeof DataFreshnessEntrySchema>;
export type FreshnessStatus = ClubFreshness['status'];
export type DiagnosticsSummary = v.InferOutput<typeof DiagnosticsSummarySchema>;

export type CatalogEntry = v.InferOutput<typeof CatalogEntrySchema>;
export type CatalogPage = v.InferOutput<typeof CatalogPageSchema>;
export type AdoptResult = v.InferOutput<typeof AdoptResultSchema>;

export type InboxItem = v.InferOutput<typeof NotificationRecordSchema>;
export type InboxPage = v.InferOutput<typeof InboxPageSchema>;
