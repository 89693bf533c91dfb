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
 * The report the cloud accepts: each row checked against the same rules the cloud applies
 * (trimmed, lengths, characters); a row that fails is skipped and named instead of blocking the
 * whole report. A club number that repeats after trimming is reported once (the first row wins).
 */
export function prepareReport(rows: readonly MirrorClubRow[]): { clubs: ReportedClub[]; skipped: SkippedClub[] } {
  const clubs: ReportedClub[] = [];
  const skipped: SkippedClub[] = [];
  const seen = new Set<string>();
  for (const row of rows) {
    const parsed = v.safeParse(ReportedClubSchema, { vereinsId: row.vereinsId, name: row.name });
    if (!parsed.success) {
      const issue = parsed.issues[0];
      skipped.push({ vereinsId: row.vereinsId, reason: `${v.getDotPath(issue) ?? 'row'} ${issue.message}` });
    } else if (seen.has(parsed.output.vereinsId)) {
      skipped.push({ vereinsId: row.vereinsId, reason: 'repeats a club number after trimming' });
    } else {
      seen.add(parsed.output.vereinsId);
      clubs.push(parsed.output);
    }
  }
  return { clubs, skipped };
}
