import { randomUUID } from 'node:crypto';
import type { Sql } from '../shared/db/client';
import { syncKnownClubs } from '../shared/clubMaster/knownClubSync';
import type { ReportedClub } from '../shared/clubMaster/schemas';
import type { BenchContext } from './context';
import { compare } from './harness';

const CLUBS = 5_000;
const WARMUP = 3;
const ITERATIONS = 20;

/**
 * One box report of 5,000 clubs replacing 5,000 existing rows, against a bare
 * `INSERT ... SELECT FROM unnest(...)` of 5,000 rows into the same table, in the same run.
 *
 * Subject (first figure): syncKnownClubs for a box that already has 5,000 active rows,
 * alternating between two lists that share no club number, so every run turns 5,000 rows active
 * (inserted the first time, restored afterwards) and marks the previous 5,000 deleted; after the
 * first two runs the box holds 10,000 rows, half of them sourceDeleted. That is the whole service
 * call: transaction, advisory lock, upsert with counts, mark-missing update, report summary row.
 * Subject (second figure): the steady state of a real box, the same 5,000 clubs reported again
 * (5,000 refreshed, nothing marked).
 * Baseline: one autocommit statement inserting 5,000 (vereinsId, name) pairs from unnest arrays
 * into the same table (same primary key and indexes) for a box without rows: each run uses its own
 * pre-created box, so nothing has to be cleaned up inside the timed part.
 */
export default async function clubMasterSync({ sql }: BenchContext) {
  const lists: ReportedClub[][] = ['a', 'b'].map((prefix) =>
    Array.from({ length: CLUBS }, (_, i) => ({
      vereinsId: `${prefix}${100_000 + i}`,
      name: `Schützenverein ${prefix.toUpperCase()} ${i}`,
    })),
  );

  const replacingBox = await createClub(sql, 'Bench box (replacing)');
  await syncKnownClubs(sql, replacingBox, lists[1]!);
  let turn = 0;
  const replacing = await compare({
    title: 'Club master sync: 5,000-club report replacing 5,000 rows vs bare INSERT ... SELECT FROM unnest of 5,000 rows',
    baseline: await bareInsert(sql, lists[0]!),
    subject: {
      name: 'syncKnownClubs (5,000 made active, 5,000 marked deleted)',
      run: async () => {
        turn += 1;
        return syncKnownClubs(sql, replacingBox, lists[turn % 2]!);
      },
    },
    iterations: ITERATIONS,
    warmup: WARMUP,
    target: 3,
  });

  const steadyBox = await createClub(sql, 'Bench box (steady)');
  await syncKnownClubs(sql, steadyBox, lists[0]!);
  const steady = await compare({
    title: 'Club master sync: 5,000-club report refreshing the same 5,000 rows vs bare INSERT ... SELECT FROM unnest of 5,000 rows',
    baseline: await bareInsert(sql, lists[0]!),
    subject: { name: 'syncKnownClubs (5,000 refreshed)', run: () => syncKnownClubs(sql, steadyBox, lists[0]!) },
    iterations: ITERATIONS,
    warmup: WARMUP,
    target: 3,
  });
  return [replacing, steady];
}

async function createClub(sql: Sql, name: string): Promise<string> {
  const id = randomUUID();
  await sql`insert into club (id, name) values (${id}, ${name})`;
  return id;
}

/** The baseline side: each run inserts the list for a fresh, pre-created box. */
async function bareInsert(sql: Sql, clubs: ReportedClub[]) {
  const boxes = Array.from({ length: WARMUP + ITERATIONS }, () => randomUUID());
  await sql`insert into club (id, name) select id, 'Bench baseline box' from unnest(${boxes}::text[]) as b(id)`;
  const vereinsIds = clubs.map((club) => club.vereinsId);
  const names = clubs.map((club) => club.name);
  return {
    name: 'insert into "ClubDataKnownClub" select from unnest (5,000 rows)',
    run: async () => {
      const box = boxes.shift()!;
      await sql`
        insert into "ClubDataKnownClub" ("reportedByClubId", "vereinsId", "name", "firstSeenAt", "lastSeenAt")
        select ${box}, r."vereinsId", r."name", now(), now()
        from unnest(${vereinsIds}::text[], ${names}::text[]) as r("vereinsId", "name")`;
    },
  };
}
