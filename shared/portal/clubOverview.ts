import { readRecordedConsents } from '../boxConnector/consentRepository';
import type { IngestHealthSource } from '../ingest/healthSource';
import { readClubCatalogStatus } from '../clubMaster/clubCatalogStatus';
import { pageClubMembers } from '../clubs/clubMembersQuery';
import type { Queryable } from '../db/client';
import { NotFoundError } from '../errors/domainErrors';
import { readClubFreshnessView } from '../freshness/clubFreshnessView';
import { getTrainingPlan } from '../freshness/trainingPlanService';
import { readClubIngestView } from '../ingest/clubIngestView';
import { readIngestHealth } from '../ingest/health';
import { readClubBoxView } from './boxPushes';
import { clubStory } from './clubStory';
import type { ClubOverview } from './clubOverviewSchema';

export interface ClubOverviewOptions {
  now: Date;
  /** CLUB_MASTER_STALE_AFTER_HOURS: a push channel without an accepted push for this long is failing. */
  staleAfterHours: number;
  /** Whose ingest status is read (healthSource.ts); while none is, the quarantine and drift context is unknown (rejects and dead letters still show). */
  ingestSource: IngestHealthSource;
  /** What the caller may see beyond the club itself: ingest detail (diagnostics.read), the member list (clubs.manage). */
  include: { ingest: boolean; members: boolean };
  members: { limit: number; offset: number };
}

/** The club page's data in one call; NotFoundError club_not_found for an unknown id. */
export async function readClubOverview(sql: Queryable, clubId: string, options: ClubOverviewOptions): Promise<ClubOverview> {
  const found = await readClubFreshnessView(sql, clubId, options.now);
  if (!found) throw new NotFoundError('There is no club with this id.', { code: 'club_not_found' });
  const { club, freshness } = found;
  const vereinsId = club.vereinsId;
  const [catalog, box, consents, trainingPlan, members, ingest] = await Promise.all([
    readClubCatalogStatus(sql, club),
    readClubBoxView(sql, clubId, options.now, options.staleAfterHours),
    readRecordedConsents(sql, [clubId]),
    getTrainingPlan(sql, clubId),
    options.include.members ? pageClubMembers(sql, clubId, options.members) : null,
    options.include.ingest && vereinsId !== null
      ? readIngestHealth(sql, { ...options.ingestSource, detail: true, now: options.now, recentRejectLimit: 0 }).then((health) =>
          readClubIngestView(sql, vereinsId, health),
        )
      : null,
  ]);
  const consent = consents.get(clubId);
  const consentState = consent?.state ?? 'unknown';
  return {
    generatedAt: options.now.toISOString(),
    club,
    catalog,
    freshness,
    box: {
      ...box,
      consent: consent
        ? { state: consent.state, since: consent.changedAt?.toISOString() ?? null, reportedAt: consent.receivedAt.toISOString() }
        : { state: 'unknown', since: null, reportedAt: null },
    },
    story: clubStory({
      freshness: freshness.checked && freshness.entry ? freshness.entry.status : 'not_checked',
      hint: freshness.entry?.hint?.code ?? null,
      pushes: { clubMaster: box.clubMaster.state, starterlists: box.starterlists.state },
      consent: consentState,
      // The quarantine names the club only when the ingest view found it (its number or topics).
      quarantined: ingest?.quarantine != null,
      deadLetters: ingest?.deadLetters.pending ?? 0,
    }),
    ingest,
    trainingPlan,
    members,
  };
}
