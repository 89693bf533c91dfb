import * as v from 'valibot';
import { getSettings } from '../shared/config/settings';
import { getSql } from '../shared/db/client';
import { defineGroup } from '../shared/host/definition';
import { declared } from './declarations';
import { requireAnyCapability } from '../shared/http/guards';
import { defineRoute, json } from '../shared/http/route';
import { pageLimit, pageOffset } from '../shared/paging/limit';
import { readClubOverview } from '../shared/portal/clubOverview';
import { ingestHealthSource } from '../shared/ingest/healthSource';
import { ClubOverviewSchema } from '../shared/portal/clubOverviewSchema';

const ParamsSchema = v.object({
  clubId: v.pipe(v.string(), v.nonEmpty('must not be empty'), v.maxLength(200, 'must be at most 200 characters')),
});
/** limit and offset page the club's members (the only list of the page without a fixed bound). */
const QuerySchema = v.object({ limit: pageLimit(50, 200), offset: pageOffset(1_000_000) });

/** The admin portal's club page (incident rule 1: "open the club's host in the admin portal"). */
export const clubOverviewFunctions = [
  defineGroup(declared.clubOverview, [
    defineRoute({
      method: 'GET',
      path: '/api/admin/clubs/{clubId}/overview',
      summary:
        'One club for operators: freshness with the evening evaluated and the rule-6 hint, box signals and push states, catalog status, training plan; with diagnostics.read the rejects, dead letters and quarantine/drift context of its topics; with clubs.manage its members and leaders (limit/offset)',
      guard: requireAnyCapability('diagnostics.read', 'clubs.manage'),
      params: ParamsSchema,
      query: QuerySchema,
      response: ClubOverviewSchema,
      responses: { 404: { description: 'There is no club with this id' } },
      async handle({ params, query, caller }) {
        const settings = getSettings();
        const overview = await readClubOverview(getSql(), params.clubId, {
          now: new Date(),
          staleAfterHours: settings.CLUB_MASTER_STALE_AFTER_HOURS,
          ingestSource: ingestHealthSource(settings),
          include: { ingest: caller.capabilities.has('diagnostics.read'), members: caller.capabilities.has('clubs.manage') },
          members: query,
        });
        return json(overview, 200, { 'cache-control': 'no-store' });
      },
    }),
  ]),
];
