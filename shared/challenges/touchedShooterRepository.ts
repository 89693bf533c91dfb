import type { Queryable } from '../db/client';

/**
 * The queue of shooters whose hits ingest just wrote (migration 032; the apply statement fills it,
 * shared/ingest/apply.ts). A shooter is a club number and the club software's shooter id.
 */
export interface TouchedShooter {
  clubNumber: string;
  shooterId: string;
}

/** Takes up to `limit` shooters off the queue, longest waiting first; concurrent drains take different ones. */
export async function claimTouchedShooters(sql: Queryable, limit: number): Promise<TouchedShooter[]> {
  return sql<TouchedShooter[]>`
    delete from challenge_progress_touched q
    using (select source_club_id, shooter_id from challenge_progress_touched
           order by touched_at limit ${limit} for update skip locked) as claimed
    where q.source_club_id = claimed.source_club_id and q.shooter_id = claimed.shooter_id
    returning q.source_club_id as "clubNumber", q.shooter_id as "shooterId"`;
}

/** Puts shooters back (a drain that failed half way), so the next drain or the sweep still sees them. */
export async function requeueTouchedShooters(sql: Queryable, shooters: readonly TouchedShooter[]): Promise<void> {
  if (shooters.length === 0) return;
  await sql`
    insert into challenge_progress_touched (source_club_id, shooter_id)
    select * from unnest(${shooters.map((s) => s.clubNumber)}::text[], ${shooters.map((s) => s.shooterId)}::text[])
    on conflict do nothing`;
}

/** After a full sweep: the shooters queued before it started are evaluated. */
export async function forgetTouchedBefore(sql: Queryable, before: Date): Promise<number> {
  const rows = await sql`delete from challenge_progress_touched where touched_at < ${before}`;
  return rows.count;
}
