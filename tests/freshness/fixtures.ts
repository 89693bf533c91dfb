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

/** A hit of the club that arrived at `arrivedAt`. */
export async function addHit(sql: Queryable, vereinsId: string, arrivedAt: Date | string): Promise<void> {
  await sql`
    insert into club_data_hit (source_club_id, source_record_id, created_at)
    values (${vereinsId}, ${randomUUID()}, ${arrivedAt instanceof Date ? arrivedAt : new Date(arrivedAt)})`;
}
