import { recordReportedConsent, type ReportedConsent } from '../boxConnector/consentRepository';
import type { Sql, TransactionSql } from '../db/client';
import { lockBoxReports, markMissingDeleted, recordReport, upsertReported } from './knownClubRepository';
import type { ReportedClub, SyncResult } from './schemas';
import { tallySync } from './syncRules';

export { KNOWN_CLUB_LOCK_CLASS } from './knownClubRepository';

/** How long a report waits for the box's lock before giving up (lock_not_available, 55P03). */
export const DEFAULT_LOCK_TIMEOUT_MS = 30_000;

export interface SyncOptions {
  /** lock_timeout of the transaction; default DEFAULT_LOCK_TIMEOUT_MS (tests shorten it). */
  lockTimeoutMs?: number;
  /** Runs inside the transaction between the two writes (failure injection in tests). */
  betweenWrites?: (tx: TransactionSql) => Promise<void>;
  /** The consent the box reported with this sync: recorded in the same transaction (docs/box-connector.md). */
  consent?: ReportedConsent;
}

/**
 * Replaces what box `reportedByClubId` is known to report with `clubs`, the complete list: in
 * one transaction, serialised per box by a transaction-scoped advisory lock. Reported clubs are
 * (re)activated with lastSeenAt refreshed, missing ones are marked sourceDeleted. Callers have
 * validated the list (club numbers unique, lengths and characters checked).
 *
 * A report that waits out the lock fails with PostgreSQL's lock_not_available (55P03,
 * isLockTimeout in shared/db/errors.ts): transient, so a job retries it and the HTTP route asks
 * the box to send it again later.
 */
export async function syncKnownClubs(
  sql: Sql,
  reportedByClubId: string,
  clubs: readonly ReportedClub[],
  options: SyncOptions = {},
): Promise<SyncResult> {
  const vereinsIds = clubs.map((club) => club.vereinsId);
  const names = clubs.map((club) => club.name);
  const lockTimeout = `${options.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS}ms`;
  return sql.begin(async (tx) => {
    // Reports of one box queue on the advisory lock, each holding a pool connection while it
    // waits; lock_timeout bounds that wait.
    await lockBoxReports(tx, reportedByClubId, lockTimeout);
    const reportedByPrevious = await upsertReported(tx, reportedByClubId, vereinsIds, names);
    await options.betweenWrites?.(tx);
    const markedDeleted = await markMissingDeleted(tx, reportedByClubId, vereinsIds);
    const result = tallySync(reportedByPrevious, markedDeleted);
    await recordReport(tx, reportedByClubId, result);
    if (options.consent) await recordReportedConsent(tx, options.consent);
    return result;
  });
}
