import * as v from 'valibot';
import type { Queryable } from '../db/client';
import { evaluateClubs } from './clubFreshness';
import { DataFreshnessEntrySchema, toEntry } from './diagnostics';
import { readOneClubSignals } from './freshnessRepository';

/**
 * Why the freshness check passes a club by: only active clubs with a club number can deliver hits
 * (club_data_hit.source_club_id is the club number), so only those are checked.
 */
export const NOT_CHECKED_REASONS = ['inactive', 'no_club_number'] as const;

export const ClubFreshnessViewSchema = v.object({
  checked: v.boolean(),
  /** Set when checked is false. */
  notCheckedReason: v.nullable(v.picklist(NOT_CHECKED_REASONS)),
  /** The evaluation as the diagnostics list shows it (status, evening, rule-6 hint, signals); null when not checked. */
  entry: v.nullable(v.omit(DataFreshnessEntrySchema, ['consent'])),
});
export type ClubFreshnessView = v.InferOutput<typeof ClubFreshnessViewSchema>;

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
