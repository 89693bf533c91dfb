import * as v from 'valibot';
import { ClubCatalogStatusSchema } from '../clubMaster/clubCatalogStatusSchema';
import { ClubMembersPageSchema } from '../clubs/clubMembersSchema';
import { ClubFreshnessViewSchema } from '../freshness/clubFreshnessViewSchema';
import { TrainingPlanViewSchema } from '../freshness/trainingPlanViewSchema';
import { ClubIngestViewSchema } from '../ingest/clubIngestViewSchema';
import { ClubBoxViewSchema } from './boxPushSchema';
import { ClubStorySchema } from './statusBoardSchema';

const iso = v.nullable(v.string());

/** GET /api/admin/clubs/{clubId}/overview: everything an operator opens a club's page for (incident rule 1). */
export const ClubOverviewSchema = v.pipe(
  v.object({
    generatedAt: v.string(),
    club: v.object({ clubId: v.string(), vereinsId: iso, name: v.string(), status: v.picklist(['active', 'inactive']) }),
    catalog: ClubCatalogStatusSchema,
    freshness: ClubFreshnessViewSchema,
    box: v.object({
      ...ClubBoxViewSchema.entries,
      /** The data-sharing consent the box last reported; unknown when it never reported one. */
      consent: v.object({ state: v.picklist(['GRANTED', 'NONE', 'REVOKED', 'unknown']), since: iso, reportedAt: iso }),
    }),
    /** Rejects, dead letters and the incident context of the club's topics; null without diagnostics.read or a club number. */
    ingest: v.nullable(ClubIngestViewSchema),
    /** Every status word about the club and its most likely cause, from one derivation (shared/portal/clubStory.ts). */
    story: ClubStorySchema,
    trainingPlan: TrainingPlanViewSchema,
    /** The club's members and leaders, paged by limit/offset; null without clubs.manage. */
    members: v.nullable(ClubMembersPageSchema),
  }),
  v.title('ClubOverview'),
);
export type ClubOverview = v.InferOutput<typeof ClubOverviewSchema>;
