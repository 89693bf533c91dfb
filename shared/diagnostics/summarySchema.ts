import * as v from 'valibot';
import { DataFreshnessBlockSchema } from '../freshness/diagnosticsSchema';
import { DeadLetterBlockSchema } from '../ingest/deadLetterSchema';
import { IngestHealthSchema } from '../ingest/healthSchema';

/**
 * GET /api/admin/diagnostics/summary: one block per area, each built by its area. Its own module
 * because it joins two areas, and so a client imports the type without server code.
 */
export const DiagnosticsSummarySchema = v.pipe(
  v.object({
    generatedAt: v.string(),
    ingest: IngestHealthSchema,
    dataFreshness: DataFreshnessBlockSchema,
    deadLetters: DeadLetterBlockSchema,
  }),
  v.title('DiagnosticsSummary'),
);
export type DiagnosticsSummary = v.InferOutput<typeof DiagnosticsSummarySchema>;
