import type { ClubIngestView } from './clubIngestViewSchema';
import type { Queryable } from '../db/client';
import { deadLetterBlock } from './deadLetterDiagnostics';
import { listRecentRejects } from './statusRepository';
import type { IngestHealth } from './health';

/** Rejects and dead letters the club page lists at most, newest first (both records are bounded anyway). */
export const CLUB_RECORDS_LISTED = 20;

/** Whether a topic or club number from the ingest records names this club. */
function namesClub(vereinsId: string, topic: string | null | undefined, clubId: string | null | undefined): boolean {
  return clubId === vereinsId || (typeof topic === 'string' && topic.startsWith(`club.${vereinsId}.`));
}

/**
 * The club's side of the ingest: contract rejects and dead letters of its topics, and the
 * quarantine, drift and last-reject context of the ingest health when they concern it. `health`
 * is the detailed ingest block (readIngestHealth with detail), read once by the caller.
 */
export async function readClubIngestView(sql: Queryable, vereinsId: string, health: IngestHealth): Promise<ClubIngestView> {
  const prefix = `club.${vereinsId}.`;
  const [rejects, deadLetters] = await Promise.all([
    listRecentRejects(sql, CLUB_RECORDS_LISTED, vereinsId),
    deadLetterBlock(sql, vereinsId, CLUB_RECORDS_LISTED),
  ]);
  const quarantined =
    health.admissionState === 'quarantined' && namesClub(vereinsId, health.quarantineTopic, health.quarantineClubId)
      ? {
          since: health.quarantineSince,
          topic: health.quarantineTopic ?? null,
          clubId: health.quarantineClubId ?? null,
          entity: health.quarantineEntity ?? null,
          reason: health.quarantineReason ?? null,
          detail: health.quarantineDetail ?? null,
        }
      : null;
  // The drift detail names the topic it was seen on ("<reason> on <topic>: <detail>").
  const driftDetail = health.sourceDriftDetail ?? null;
  const drift =
    health.sourceDriftState && health.sourceDriftState !== 'none' && driftDetail?.includes(` on ${prefix}`)
      ? { state: health.sourceDriftState, detail: driftDetail }
      : null;
  const lastReject = namesClub(vereinsId, health.lastContractRejectTopic, health.lastContractRejectClubId)
    ? {
        at: health.lastContractRejectAt,
        reason: health.lastContractRejectReason ?? null,
        topic: health.lastContractRejectTopic ?? null,
        entity: health.lastContractRejectEntity ?? null,
        clubId: health.lastContractRejectClubId ?? null,
      }
    : null;
  return {
    topicPrefix: prefix,
    rejects: rejects.map((reject) => ({
      ...reject,
      rejectedAt: reject.rejectedAt.toISOString(),
    })),
    deadLetters,
    quarantine: quarantined,
    drift,
    lastReject,
  };
}
