import * as v from 'valibot';
import { DataFreshnessBlockSchema } from '../freshness/diagnosticsSchema';
import { DeadLetterBlockSchema } from '../ingest/deadLetterSchema';
import { IngestHealthSchema } from '../ingest/healthSchema';
import { DeliveryQueueSummarySchema } from '../notifications/outbox/deliveryQueueSchema';
import { BoxPushBlockSchema } from '../portal/boxPushSchema';
import { NamedClubsSchema } from '../portal/namedClubsSchema';
import { ClubStoriesSchema, ProblemSchema } from '../portal/statusBoardSchema';

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
    delivery: DeliveryQueueSummarySchema,
    boxPushes: BoxPushBlockSchema,
    /** The service clubs behind the club numbers the ingest block and the dead letters name (for links to their pages). */
    namedClubs: NamedClubsSchema,
    /** The open problems, worst first (shared/portal/openProblems.ts): what the overview and the diagnostics page lead with. */
    problems: v.array(ProblemSchema),
    /** One story per club the blocks above name (shared/portal/clubStory.ts), so every status word about a club agrees. */
    clubStories: ClubStoriesSchema,
  }),
  v.title('DiagnosticsSummary'),
);
export type DiagnosticsSummary = v.InferOutput<typeof DiagnosticsSummarySchema>;
