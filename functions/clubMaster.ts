import { getSettings } from '../shared/config/settings';
import { getBulkSql, getSql } from '../shared/db/client';
import { defineGroup, defineTimer } from '../shared/host/definition';
import { declared } from './declarations';
import { requireCapability } from '../shared/http/guards';
import { edgeBox } from './guards/edgeBox';
import { defineRoute, json } from '../shared/http/route';
import { adoptClub } from '../shared/clubMaster/adopt';
import { listClubCatalog } from '../shared/clubMaster/catalog';
import { runClubMasterCleanup } from '../shared/clubMaster/cleanup';
import { createBoxReportLimit } from '../shared/clubMaster/boxReportLimit';
import { syncKnownClubs } from '../shared/clubMaster/knownClubSync';
import { isLockTimeout } from '../shared/db/errors';
import { BusyError } from '../shared/errors/domainErrors';
import { parseReportedClubs } from '../shared/clubMaster/reportValidation';
import {
  AdoptBodySchema,
  AdoptResultSchema,
  CatalogPageSchema,
  CatalogQuerySchema,
  MAX_REPORT_BYTES,
  SyncReportEnvelopeSchema,
  SyncResultSchema,
} from '../shared/clubMaster/schemas';

/** Seconds a box is asked to wait when its report could not get the box's lock in time. */
export const SYNC_BUSY_RETRY_AFTER_SECONDS = 60;

/**
 * A report that waited out lock_timeout behind other reports of the same box. Mapped here, at the
 * HTTP edge, because only here is "ask again later" the answer: a job running the same sync
 * would rather retry a transient failure than drop it as a domain error.
 */
function syncBusy(cause: unknown): BusyError {
  return new BusyError('Other reports of this box are still being written; send the report again later.', SYNC_BUSY_RETRY_AFTER_SECONDS, {
    code: 'box_report_in_progress',
    cause,
  });
}

let limit: ReturnType<typeof createBoxReportLimit> | undefined;
/** Created on first use: settings are read inside the request's error handling, not at import. */
function boxReportLimit(): ReturnType<typeof createBoxReportLimit> {
  const settings = getSettings();
  limit ??= createBoxReportLimit({
    maxRunning: settings.CLUB_MASTER_SYNC_RUNNING_PER_BOX,
    maxWaiting: settings.CLUB_MASTER_SYNC_WAITING_PER_BOX,
    retryAfterSeconds: SYNC_BUSY_RETRY_AFTER_SECONDS,
  });
  return limit;
}

/** Club master-data channel: the box's sync endpoint, the admin catalog and adopt, the cleanup timer. */
export const clubMasterFunctions = [
  defineGroup(declared.clubMasterEdge, [
    defineRoute({
      method: 'POST',
      path: '/api/edge/clubs/sync',
      summary: 'A box reports the complete list of clubs its club software knows (replaces its previous report)',
      guard: edgeBox,
      // The dispatcher checks only the envelope; the cap and then the entries are checked in the
      // handler (parseReportedClubs) so an oversized list costs nothing per entry.
      body: SyncReportEnvelopeSchema,
      response: SyncResultSchema,
      responses: {
        503: {
          description:
            'Other reports of this box are still being written, too many wait their turn, or the bulk pool stayed busy (code pool_busy); send the report again later',
          headers: { 'retry-after': `Seconds to wait (${SYNC_BUSY_RETRY_AFTER_SECONDS})` },
        },
      },
      maxBodyBytes: MAX_REPORT_BYTES,
      // The box's turn is taken before its body is read: reports queued behind it are not parsed yet.
      admit: (caller) => boxReportLimit().admit(caller.clubId),
      async handle({ caller, body, log }) {
        const clubs = await parseReportedClubs(body.clubs);
        const result = await syncKnownClubs(getBulkSql(), caller.clubId, clubs, {
          ...(body.consent ? { consent: { clubId: caller.clubId, tokenId: caller.tokenId, report: body.consent } } : {}),
        }).catch((error: unknown) => {
          throw isLockTimeout(error) ? syncBusy(error) : error;
        });
        log.info('club_master_sync', { reportedByClubId: caller.clubId, ...result });
        return json(result);
      },
    }),
  ]),
  defineGroup(declared.clubCatalog, [
    defineRoute({
      method: 'GET',
      path: '/api/admin/clubs',
      summary: 'Club catalog: service clubs and clubs known only through on-site boxes (imported_only)',
      guard: requireCapability('clubs.manage'),
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
      guard: requireCapability('clubs.manage'),
      body: AdoptBodySchema,
      response: AdoptResultSchema,
      responses: {
        201: { description: 'The service club was created', schema: AdoptResultSchema },
        404: { description: 'The club number is missing from the score data or from every box report' },
      },
      async handle({ body, log, caller }) {
        const result = await adoptClub(getSql(), body.vereinsId);
        log.info('club_adopted', { clubId: result.club.id, vereinsId: result.club.vereinsId, created: result.created, by: caller.userId });
        return json(result, result.created ? 201 : 200);
      },
    }),
  ]),
  defineTimer(declared.clubMasterCleanup, async ({ log }) => {
    const settings = getSettings();
    const outcome = await runClubMasterCleanup(
      getSql(),
      { retentionDays: settings.CLUB_MASTER_RETENTION_DAYS, staleAfterHours: settings.CLUB_MASTER_STALE_AFTER_HOURS },
      log,
    );
    return { ...outcome };
  }),
];
