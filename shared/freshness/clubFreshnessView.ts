import type { ClubFreshnessView } from './clubFreshnessViewSchema';
import type { Queryable } from '../db/client';
import { evaluateClubs } from './clubFreshness';
import { toEntry } from './diagnostics';
import { readOneClubSignals } from './freshnessRepository';

export interface ClubIdentity {
  clubId: string;
  vereinsId: string | null;
  name: string;
  status: 'active' | 'inactive';
}

/**
 * One club's freshness at `now`, evaluated exactly as the check evaluates every club, with the
 * club's identity; undefined when there is no club with this id.
 */
export async function readClubFreshnessView(
  sql: Queryable,
  clubId: string,
  now: Date,
): Promise<{ club: ClubIdentity; freshness: ClubFreshnessView } | undefined> {
  const signals = await readOneClubSignals(sql, clubId);
  if (!signals) return undefined;
  const club: ClubIdentity = { clubId: signals.clubId, vereinsId: signals.vereinsId, name: signals.name, status: signals.status };
  const notCheckedReason = signals.status !== 'active' ? 'inactive' : signals.vereinsId === null ? 'no_club_number' : null;
  if (notCheckedReason || signals.vereinsId === null) {
    return { club, freshness: { checked: false, notCheckedReason: notCheckedReason ?? 'no_club_number', entry: null } };
  }
  const [evaluated] = evaluateClubs([{ ...signals, vereinsId: signals.vereinsId }], now);
  if (!evaluated) throw new Error('The evaluation of one club returned nothing.');
  const { consent: _consent, ...entry } = toEntry(evaluated);
  return { club, freshness: { checked: true, notCheckedReason: null, entry } };
}
