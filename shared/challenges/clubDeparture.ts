import type { Queryable } from '../db/client';

/**
 * What a member's departure from a club (removed, or left) means for their challenges, run in
 * the transaction that deletes the membership:
 * - active participations in the club's own challenges are cancelled, as if they had left them
 *   (they can no longer see those challenges); finished ones stay as the history they are;
 * - participations in global and personal challenges leave the club's board (club_id null) and
 *   keep running on the global board;
 * - their shooter links in the club are deleted, so the club's shots no longer count for them.
 * XP and badges already earned are never touched.
 */
export async function withdrawFromClub(sql: Queryable, clubId: string, userId: string, now: Date = new Date()): Promise<void> {
  await sql`
    update challenge_participation set status = 'cancelled', finished_at = ${now}
    where user_id = ${userId} and club_id = ${clubId} and status = 'active'
      and challenge_id in (select id from challenge where scope = 'club' and club_id = ${clubId})`;
  await sql`
    update challenge_participation set club_id = null
    where user_id = ${userId} and club_id = ${clubId}
      and challenge_id in (select id from challenge where scope <> 'club')`;
  await sql`delete from challenge_shooter_link where club_id = ${clubId} and user_id = ${userId}`;
}
