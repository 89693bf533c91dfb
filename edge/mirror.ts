import postgres from 'postgres';
import * as v from 'valibot';
import { ReportedClubSchema, type ReportedClub } from '../shared/clubMaster/schemas';

/**
 * The clubs known to the club software, as its mirror database on the box holds them: table
 * `club_software_club` (vereins_id text primary key, name text not null, deleted boolean not
 * null default false). Rows with deleted = true are not reported.
 */
export const MIRROR_CLUB_TABLE_DDL = `
  create table if not exists club_software_club (
    vereins_id text primary key,
    name text not null,
    deleted boolean not null default false
  )`;

export interface MirrorClubRow {
  vereinsId: string;
  name: string;
}

/** A small pool on the mirror database; the agent only reads from it. */
export function connectMirror(url: string): postgres.Sql {
  return postgres(url, {
    max: 2,
    idle_timeout: 30,
    connect_timeout: 10,
    onnotice: () => undefined,
    connection: { application_name: 'club-master-agent' },
  });
}

/** Every club of the club software that is not deleted, ordered by club number. */
export async function readMirrorClubs(sql: postgres.Sql): Promise<MirrorClubRow[]> {
  return sql<MirrorClubRow[]>`
    select vereins_id as "vereinsId", name from club_software_club where not deleted order by vereins_id`;
}

export interface SkippedClub {
  vereinsId: string;
  reason: string;
}

/**
 * The report of a mirror, or why it cannot be sent. The cloud takes a report as the complete list
 * of the box's clubs and marks every club missing from it deleted (sync rule 1), so a row the
 * cloud would refuse is never left out: one invalid row and the whole report stays on the box,
 * named, until the club software is fixed (the cloud keeps the last report meanwhile). Rows are
 * checked against the rules the cloud applies (trimmed, lengths, characters). A club number that
 * repeats after trimming is the same club and is reported once (the first row wins; the others
 * are listed in `merged`).
 */
export type PreparedReport = { ok: true; clubs: ReportedClub[]; merged: SkippedClub[] } | { ok: false; invalid: SkippedClub[] };

export function prepareReport(rows: readonly MirrorClubRow[]): PreparedReport {
  const clubs: ReportedClub[] = [];
  const merged: SkippedClub[] = [];
  const invalid: SkippedClub[] = [];
  const seen = new Set<string>();
  for (const row of rows) {
    const parsed = v.safeParse(ReportedClubSchema, { vereinsId: row.vereinsId, name: row.name });
    if (!parsed.success) {
      const issue = parsed.issues[0];
      invalid.push({ vereinsId: row.vereinsId, reason: `${v.getDotPath(issue) ?? 'row'} ${issue.message}` });
    } else if (seen.has(parsed.output.vereinsId)) {
      merged.push({ vereinsId: row.vereinsId, reason: 'repeats a club number after trimming' });
    } else {
      seen.add(parsed.output.vereinsId);
      clubs.push(parsed.output);
    }
  }
  return invalid.length > 0 ? { ok: false, invalid } : { ok: true, clubs, merged };
}

/** How many invalid rows a failure message names (the rest are counted). */
export const NAMED_INVALID_ROWS = 10;

/** The sentence the box shows when a report cannot be sent. */
export function invalidReportMessage(invalid: readonly SkippedClub[], rowCount: number): string {
  const named = invalid
    .slice(0, NAMED_INVALID_ROWS)
    .map((row) => `${JSON.stringify(row.vereinsId.slice(0, 40))}: ${row.reason}`)
    .join('; ');
  const more = invalid.length > NAMED_INVALID_ROWS ? `; and ${invalid.length - NAMED_INVALID_ROWS} more` : '';
  return (
    `${invalid.length} of ${rowCount} mirror rows failed the checks, so nothing was sent and the cloud keeps the last report ` +
    `(no club is marked deleted). Fix these rows in the club software: ${named}${more}.`
  );
}
