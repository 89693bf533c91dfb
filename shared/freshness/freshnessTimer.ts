import type { Sql } from '../db/client';
import type { Logger } from '../log/logger';
import { telemetry } from '../telemetry/telemetry';
import { evaluateClubs } from './clubFreshness';
import { countStatuses } from './evaluation';
import { sendClaimedNotices } from './freshnessNotices';
import { readClubSignals } from './freshnessRepository';
import { recordFreshness } from './freshnessState';

/**
 * One run of the freshnessCheck timer: evaluate every club, record status changes with the
 * evening evaluated, then send the notices the run claimed. A failing read or write is an
 * infrastructure failure and is thrown (the timer's retry policy runs it again).
 */
export async function runFreshnessCheck(sql: Sql, now: Date, log: Logger): Promise<Record<string, number>> {
  const clubs = evaluateClubs(await readClubSignals(sql), now);
  const { changes, notices } = await recordFreshness(sql, clubs, now);
  for (const change of changes) log.info('freshness_status_changed', { ...change });
  const sent = await sendClaimedNotices(sql, clubs, notices, now, log);
  const { checked, fresh, stale, unknown, error } = countStatuses(clubs.map((club) => club.verdict.status));
  const backend = telemetry();
  for (const [state, count] of Object.entries({ fresh, stale, unknown, error })) backend?.gauge('freshness.clubs', count, { state });
  return { checked, fresh, stale, unknown, error, changes: changes.length, ...sent };
}
