import type { Queryable } from '../db/client';
import type { FreshnessStatus } from './evaluation';
import type { TrainingEvening, TrainingPlan } from './trainingPlan';

/**
 * Everything the freshness check needs about one club, as one row of one query. The clubs
 * checked are the service's active clubs with a club number (club.status = 'active' and
 * vereins_id set): only those can deliver hits (club_data_hit.source_club_id is the club number).
 */
export interface ClubSignals {
  clubId: string;
  vereinsId: string;
  name: string;
  /** Null when the club stored no plan. */
  storedPlan: TrainingPlan | null;
  /** Cloud arrival (created_at) of the club's newest hit (club_last_arrival); null when it never delivered one. */
  lastArrivalAt: Date | null;
  lastStarterlistSeenAt: Date | null;
  edgeTokenLastUsedAt: Date | null;
  boxCheckAt: Date | null;
  boxCheckHitsAfter: boolean | null;
  /** What the freshness timer last recorded. */
  recordedStatus: FreshnessStatus | null;
  recordedSince: Date | null;
}

interface SignalsRow extends Omit<ClubSignals, 'storedPlan'> {
  clubStatus: 'active' | 'inactive';
  planTimeZone: string | null;
  planEvenings: TrainingEvening[] | null;
}

/**
 * The columns and joins of a club's signals; CLUB_SIGNALS_QUERY and readOneClubSignals add the clubs
 * read. Every join is a hash or key join: a lateral subquery per club (the token use was one) made
 * the estimate of the 14,000-club query pass jit_above_cost, and compiling it took longer than
 * running it (about 540 of 820 ms, docs/benchmarks.md "Federation run").
 */
const CLUB_SIGNALS_SELECT = `
    select c.id as "clubId", c.vereins_id as "vereinsId", c.name, c.status as "clubStatus",
           plan.time_zone as "planTimeZone", plan.evenings as "planEvenings",
           arrival.last_arrival_at as "lastArrivalAt",
           box.last_starterlist_seen_at as "lastStarterlistSeenAt",
           box.box_check_at as "boxCheckAt", box.box_check_hits_after as "boxCheckHitsAfter",
           token.last_used_at as "edgeTokenLastUsedAt",
           state.status as "recordedStatus", state.since as "recordedSince"
    from club c
    left join club_training_plan plan on plan.club_id = c.id
    left join club_last_arrival arrival on arrival.source_club_id = c.vereins_id
    left join (select t.club_id, max(t.last_used_at) as last_used_at from edge_token t group by t.club_id) token on token.club_id = c.id
    left join edge_box_signal box on box.club_id = c.id
    left join club_freshness_state state on state.club_id = c.id`;

/** The query of readClubSignals. Its text is fixed (it takes no input), so a test can EXPLAIN the very query that runs. */
export const CLUB_SIGNALS_QUERY = `${CLUB_SIGNALS_SELECT}
    where c.status = 'active' and c.vereins_id is not null
    order by c.id`;

function toSignals({ planTimeZone, planEvenings, clubStatus: _status, ...row }: SignalsRow): ClubSignals {
  return { ...row, storedPlan: planTimeZone && planEvenings ? { timeZone: planTimeZone, evenings: planEvenings } : null };
}

/**
 * One query for every club checked. The newest arrival comes from club_last_arrival (migration
 * 036), one key lookup per club, kept by the ingest apply statement: read from the hits, it
 * probed every monthly partition per club (docs/freshness.md, "One query for all clubs"). Every
 * hit counts, soft-deleted ones too: freshness asks whether data arrived, not whether it stayed.
 */
export async function readClubSignals(sql: Queryable): Promise<ClubSignals[]> {
  const rows = await sql.unsafe<SignalsRow[]>(CLUB_SIGNALS_QUERY);
  return rows.map(toSignals);
}

/**
 * The same signals for one club, whatever its status (the club page shows them for an inactive
 * club too); undefined when there is no club with this id. `vereinsId` is null for a club without
 * a club number, which has no hits to read.
 */
export async function readOneClubSignals(
  sql: Queryable,
  clubId: string,
): Promise<(Omit<ClubSignals, 'vereinsId'> & { vereinsId: string | null; status: 'active' | 'inactive' }) | undefined> {
  const [row] = await sql.unsafe<SignalsRow[]>(`${CLUB_SIGNALS_SELECT} where c.id = $1`, [clubId]);
  return row ? { ...toSignals(row), status: row.clubStatus } : undefined;
}

/** The club's stored plan, or null when it has none (the default applies). */
export async function findStoredPlan(sql: Queryable, clubId: string): Promise<{ plan: TrainingPlan; updatedAt: Date } | null> {
  const [row]: [{ timeZone: string; evenings: TrainingEvening[]; updatedAt: Date }?] = await sql`
    select time_zone as "timeZone", evenings, updated_at as "updatedAt" from club_training_plan where club_id = ${clubId}`;
  return row ? { plan: { timeZone: row.timeZone, evenings: row.evenings }, updatedAt: row.updatedAt } : null;
}

/** Stores (replaces) the club's plan. */
export async function saveStoredPlan(sql: Queryable, clubId: string, plan: TrainingPlan, updatedBy: string): Promise<Date> {
  const [row]: [{ updatedAt: Date }?] = await sql`
    insert into club_training_plan (club_id, time_zone, evenings, updated_at, updated_by)
    values (${clubId}, ${plan.timeZone}, ${sql.json(plan.evenings as never)}, now(), ${updatedBy})
    on conflict (club_id) do update
      set time_zone = excluded.time_zone, evenings = excluded.evenings, updated_at = excluded.updated_at, updated_by = excluded.updated_by
    returning updated_at as "updatedAt"`;
  if (!row) throw new Error('The plan upsert returned no row.');
  return row.updatedAt;
}

/** Whether a service club with this id exists. */
export async function clubExists(sql: Queryable, clubId: string): Promise<boolean> {
  const [row]: [{ id: string }?] = await sql`select id from club where id = ${clubId}`;
  return row !== undefined;
}

/** The user ids of the club's leaders. */
export async function listClubLeaders(sql: Queryable, clubId: string): Promise<string[]> {
  const rows = await sql<{ userId: string }[]>`
    select user_id as "userId" from club_membership where club_id = ${clubId} and role = 'leader' order by user_id`;
  return rows.map((row) => row.userId);
}
