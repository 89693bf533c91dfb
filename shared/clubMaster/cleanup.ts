import type { Queryable } from '../db/client';
import type { Logger } from '../log/logger';
import { purgeDeletedKnownClubs } from './knownClubRepository';
import { databaseNow, listReportingBoxes } from './reportRepository';
import { findStaleBoxes } from './staleBoxes';

export interface CleanupSettings {
  retentionDays: number;
  staleAfterHours: number;
}

export interface CleanupOutcome {
  purged: number;
  staleBoxes: number;
}

/**
 * Keeps the channel tidy: deletes known-club rows that have been sourceDeleted for longer than
 * the retention, and warns about boxes that stopped reporting (a box whose tokens are all
 * revoked was decommissioned on purpose and is not reported).
 */
export async function runClubMasterCleanup(sql: Queryable, settings: CleanupSettings, log: Logger): Promise<CleanupOutcome> {
  const purged = await purgeDeletedKnownClubs(sql, settings.retentionDays);
  const stale = findStaleBoxes(await listReportingBoxes(sql), await databaseNow(sql), settings.staleAfterHours);
  if (stale.length > 0) {
    log.warn('club_master_boxes_stale', { staleAfterHours: settings.staleAfterHours, boxes: stale });
  }
  return { purged, staleBoxes: stale.length };
}
