import { randomUUID } from 'node:crypto';
import type { Queryable } from '../../shared/db/client';
import { createClub, uniqueVereinsId, type ClubFixture, type ClubOptions } from '../support/fixtures';

/** An active service club with a club number of its own (the freshness checks need one), its leaders and members. */
export async function createFreshnessClub(sql: Queryable, options: ClubOptions = {}): Promise<ClubFixture> {
  return createClub(sql, {
    ...options,
    vereinsId: options.vereinsId === undefined ? uniqueVereinsId() : options.vereinsId,
    name: options.name ?? `SV Frische ${randomUUID().slice(0, 6)}`,
  });
}

/**
 * A hit of the club that arrived at `arrivedAt`, with the club's last arrival moved as the ingest
 * apply statement moves it (only forward): a hit's arrival time cannot be chosen through ingest.
 */
export async function addHit(sql: Queryable, vereinsId: string, arrivedAt: Date | string): Promise<void> {
  const at = arrivedAt instanceof Date ? arrivedAt : new Date(arrivedAt);
  await sql`
    with hit as (
      insert into club_data_hit (source_club_id, source_record_id, created_at) values (${vereinsId}, ${randomUUID()}, ${at})
      returning source_club_id, created_at)
    insert into club_last_arrival as t (source_club_id, last_arrival_at)
    select source_club_id, created_at from hit
    on conflict (source_club_id) do update set last_arrival_at = greatest(t.last_arrival_at, excluded.last_arrival_at)`;
}
