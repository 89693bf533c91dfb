import type { FieldError } from '../errors/domainErrors';
import type { ReportedClub, SyncResult } from './schemas';

/** What a box's row for one club number looked like before a report. */
export type PreviousState = 'absent' | 'active' | 'deleted';

/** Which counter of the sync result a row's transition adds to (none when the row is untouched). */
export type SyncCounter = 'added' | 'restored' | 'refreshed' | 'markedDeleted' | 'none';

/**
 * The "counted as" column of the "Known-club rows" state table: which counter one club number of
 * one box adds to. The row changes themselves (states, timestamps) are made by the SQL in
 * knownClubSync.ts. A report is complete, so a club missing from it is gone from the club software.
 */
export function transitionCounter(previous: PreviousState, inReport: boolean): SyncCounter {
  if (inReport) return previous === 'absent' ? 'added' : previous === 'deleted' ? 'restored' : 'refreshed';
  return previous === 'active' ? 'markedDeleted' : 'none';
}

/**
 * Turns per-previous-state counts of the reported rows and the number of rows newly marked
 * deleted into the result the box receives.
 */
export function tallySync(reportedByPrevious: Partial<Record<PreviousState, number>>, markedDeleted: number): SyncResult {
  const result: SyncResult = { reported: 0, added: 0, restored: 0, refreshed: 0, markedDeleted };
  for (const [previous, count] of Object.entries(reportedByPrevious) as [PreviousState, number][]) {
    const counter = transitionCounter(previous, true);
    if (counter === 'none' || counter === 'markedDeleted') continue;
    result[counter] += count;
    result.reported += count;
  }
  return result;
}

/**
 * One field error per repeated club number (every occurrence after the first), so the box learns
 * exactly which entries clash. Club numbers are compared exactly, after trimming.
 */
export function duplicateVereinsIdErrors(clubs: readonly ReportedClub[]): FieldError[] {
  const firstIndex = new Map<string, number>();
  const errors: FieldError[] = [];
  clubs.forEach((club, index) => {
    const first = firstIndex.get(club.vereinsId);
    if (first === undefined) firstIndex.set(club.vereinsId, index);
    else errors.push({ path: `clubs.${index}.vereinsId`, message: `repeats the club number of clubs.${first}` });
  });
  return errors;
}
