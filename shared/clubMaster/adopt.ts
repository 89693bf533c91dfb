import type { Sql } from '../db/client';
import { NotFoundError } from '../errors/domainErrors';
import { hasScoreData, upsertActiveClub } from './clubRepository';
import { findReportedName } from './knownClubRepository';
import type { AdoptResult } from './schemas';

/**
 * Club bootstrap: makes the club number a service club, provided it is found both in the score
 * data source (club_data_hit, written by ingest) and in the known-club source (an active row of
 * "ClubDataKnownClub"). Creates the club with the most recently reported name, or activates an
 * existing one (keeping its name). Idempotent: `created` is true only for the call that created it.
 * Throws NotFoundError (code `club_number_unknown`) when either source lacks the number.
 */
export async function adoptClub(sql: Sql, vereinsId: string): Promise<AdoptResult> {
  return sql.begin(async (tx) => {
    const knownName = await findReportedName(tx, vereinsId);
    const scored = await hasScoreData(tx, vereinsId);
    const missing = [!scored ? 'the score data source' : undefined, knownName === undefined ? 'the known-club source' : undefined]
      .filter(Boolean)
      .join(' and ');
    if (knownName === undefined || missing) {
      throw new NotFoundError(`Club number ${vereinsId} was not found in ${missing}.`, { code: 'club_number_unknown' });
    }
    return upsertActiveClub(tx, vereinsId, knownName);
  });
}
