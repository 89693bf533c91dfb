import * as v from 'valibot';
import { invalid, TooLargeError, type FieldError } from '../errors/domainErrors';
import { MAX_CLUBS_PER_REPORT, ReportedClubSchema, type ReportedClub } from './schemas';
import { duplicateVereinsIdErrors } from './syncRules';
import { nextEventLoopTurn } from '../validation/eventLoopTurn';

/** Entries validated between two turns of the event loop. */
const ENTRIES_PER_SLICE = 1_000;

/**
 * The clubs of a sync report whose envelope has been validated. Order matters for the cost: the
 * cap is checked first (413), so an oversized list is refused without looking at a single entry;
 * then each entry is validated (400, paths `clubs.N.field`), then club numbers must be unique.
 * At most MAX_LISTED_ERRORS errors are listed (see invalid).
 */
export async function parseReportedClubs(entries: readonly unknown[]): Promise<ReportedClub[]> {
  if (entries.length > MAX_CLUBS_PER_REPORT) {
    throw new TooLargeError(`A report may list at most ${MAX_CLUBS_PER_REPORT} clubs; it listed ${entries.length}.`, {
      code: 'too_many_clubs',
    });
  }
  const clubs: ReportedClub[] = [];
  const errors: FieldError[] = [];
  for (let index = 0; index < entries.length; index += 1) {
    // Validating 10,000 entries at once held the event loop for tens of milliseconds: user calls
    // arriving meanwhile waited for all of it.
    if (index > 0 && index % ENTRIES_PER_SLICE === 0) await nextEventLoopTurn();
    const parsed = v.safeParse(ReportedClubSchema, entries[index]);
    if (parsed.success) clubs.push(parsed.output);
    else for (const issue of parsed.issues) errors.push(entryError(index, issue));
  }
  if (errors.length) throw invalid('The report did not pass validation.', errors);
  const duplicates = duplicateVereinsIdErrors(clubs);
  if (duplicates.length) throw invalid('Each club number may appear once per report.', duplicates);
  return clubs;
}

function entryError(index: number, issue: v.BaseIssue<unknown>): FieldError {
  const field = v.getDotPath(issue);
  return { path: field ? `clubs.${index}.${field}` : `clubs.${index}`, message: issue.message };
}
