import type { Queryable } from '../db/client';
import { ConflictError, NotFoundError } from '../errors/domainErrors';
import { PARTICIPATION_JSON, type ParticipationRowJson } from './challengeRepository';
import type { ParticipationView } from './model';

/**
 * Leaving a challenge: the caller's own active participation becomes `cancelled`. Nothing is
 * taken back, because an active participation has earned nothing yet (XP and badges are paid when
 * it completes, and completed or failed ones cannot be left). A cancelled row is on no board and
 * in no team progress (the boards' filters and challenge_board_score leave cancelled rows out).
 * Joining again later reuses the row as a fresh attempt (joinChallenge).
 */
export async function leaveChallenge(
  sql: Queryable,
  userId: string,
  participationId: string,
  now: Date = new Date(),
): Promise<ParticipationView> {
  const [left]: [{ participation: ParticipationRowJson }?] = await sql`
    with left_row as (
      update challenge_participation set status = 'cancelled', finished_at = ${now}
      where id = ${participationId} and user_id = ${userId} and status = 'active'
      returning *)
    select ${sql.unsafe(PARTICIPATION_JSON)} as participation from left_row p`;
  if (left) return left.participation;
  const [existing]: [{ status: string }?] = await sql`
    select status from challenge_participation where id = ${participationId} and user_id = ${userId}`;
  if (!existing) throw new NotFoundError('No such participation of yours.', { code: 'participation_not_found' });
  throw new ConflictError(`Only an active participation can be left; this one is ${existing.status}.`, { code: 'not_active' });
}
