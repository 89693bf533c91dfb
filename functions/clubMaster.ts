import { getSettings } from '../shared/config/settings';
import { getSql } from '../shared/db/client';
import { httpGroup, timerFunction } from '../shared/functions/definition';
import { platformAdmin } from '../shared/http/guards';
import { badRequest, payloadTooLarge } from '../shared/http/problem';
import { defineRoute, json } from '../shared/http/route';
import { adoptClub } from '../shared/clubMaster/adopt';
import { listClubCatalog } from '../shared/clubMaster/catalog';
import { runClubMasterCleanup } from '../shared/clubMaster/cleanup';
import { edgeBox } from '../shared/clubMaster/edgeAuth';
import { syncKnownClubs } from '../shared/clubMaster/knownClubSync';
import {
  AdoptBodySchema,
  AdoptResultSchema,
  CatalogPageSchema,
  CatalogQuerySchema,
  MAX_CLUBS_PER_REPORT,
  MAX_REPORT_BYTES,
  SyncReportSchema,
  SyncResultSchema,
} from '../shared/clubMaster/schemas';
import { duplicateVereinsIdErrors } from '../shared/clubMaster/syncRules';

/** Club master-data channel: the box's sync endpoint, the admin catalog and adopt, the cleanup timer. */
export const clubMasterFunctions = [
  httpGroup('clubMasterEdge', 'api/edge', [
    defineRoute({
      method: 'POST',
      path: '/api/edge/clubs/sync',
      summary: 'A box reports the complete list of clubs its club software knows (replaces its previous report)',
      guard: edgeBox,
      body: SyncReportSchema,
      response: SyncResultSchema,
      maxBodyBytes: MAX_REPORT_BYTES,
      async handle({ caller, body, log }) {
        if (body.clubs.length > MAX_CLUBS_PER_REPORT) {
          throw payloadTooLarge(`A report may list at most ${MAX_CLUBS_PER_REPORT} clubs; it listed ${body.clubs.length}.`);
        }
        const duplicates = duplicateVereinsIdErrors(body.clubs);
        if (duplicates.length) throw badRequest('Each club number may appear once per report.', duplicates);
        const result = await syncKnownClubs(getSql(), caller.clubId, body.clubs);
        log.info('club_master_sync', { reportedByClubId: caller.clubId, ...result });
        return json(result);
      },
    }),
  ]),
  httpGroup('clubCatalog', 'api/admin/clubs', [
    defineRoute({
      method: 'GET',
      path: '/api/admin/clubs',
      summary: 'Club catalog: service clubs and clubs known only through on-site boxes (imported_only)',
      guard: platformAdmin,
      query: CatalogQuerySchema,
      response: CatalogPageSchema,
      async handle({ query }) {
        return json(await listClubCatalog(getSql(), query));
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/api/admin/clubs/adopt',
      summary: 'Creates or activates the service club for a club number found in both the score data and a box report',
      guard: platformAdmin,
      body: AdoptBodySchema,
      response: AdoptResultSchema,
      async handle({ body, log, caller }) {
        const result = await adoptClub(getSql(), body.vereinsId);
        log.info('club_adopted', { clubId: result.club.id, vereinsId: result.club.vereinsId, created: result.created, by: caller.userId });
        return json(result, result.created ? 201 : 200);
      },
    }),
  ]),
  timerFunction('clubMasterCleanup', '%CLUB_MASTER_CLEANUP_SCHEDULE%', async ({ log }) => {
    const settings = getSettings();
    const outcome = await runClubMasterCleanup(
      getSql(),
      { retentionDays: settings.CLUB_MASTER_RETENTION_DAYS, staleAfterHours: settings.CLUB_MASTER_STALE_AFTER_HOURS },
      log,
    );
    return { ...outcome };
  }),
];
