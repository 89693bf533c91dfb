import type { Queryable } from '../db/client';

/**
 * The backfill's own status rows (`ingest_backfill_status`, one per consumer group): what the
 * ingest health's `backfills` lists. The backfill never writes the runner status record.
 */
export type BackfillState = 'running' | 'done' | 'failed' | 'refused';

export type BackfillScope = { clubIds: string[] } | { records: { clubId: string; recordId: string }[] };

export interface BackfillStatusRow {
  consumerGroup: string;
  kind: 'records' | 'shooters';
  scope: BackfillScope;
  fresh: boolean;
  state: BackfillState;
  eventsRead: number;
  eventsApplied: number;
  eventsSkipped: number;
  rowsWritten: number;
  lagLeft: number | null;
  progressIntervalMs: number;
  startedAt: Date;
  updatedAt: Date;
  finishedAt: Date | null;
  errorMessage: string | null;
}

/** Writes the whole row: a rerun with the same group replaces the previous run's row. */
export async function writeBackfillStatus(sql: Queryable, row: BackfillStatusRow): Promise<void> {
  await sql`
    insert into ingest_backfill_status (
      consumer_group, kind, scope, fresh, state, events_read, events_applied, events_skipped, rows_written, lag_left,
      progress_interval_ms, started_at, updated_at, finished_at, error_message
    ) values (
      ${row.consumerGroup}, ${row.kind}, ${sql.json(row.scope)}, ${row.fresh}, ${row.state}, ${row.eventsRead},
      ${row.eventsApplied}, ${row.eventsSkipped}, ${row.rowsWritten}, ${row.lagLeft}, ${row.progressIntervalMs},
      ${row.startedAt.toISOString()}::timestamptz, ${row.updatedAt.toISOString()}::timestamptz,
      ${row.finishedAt ? row.finishedAt.toISOString() : null}::timestamptz, ${row.errorMessage}
    )
    on conflict (consumer_group) do update set
      kind = excluded.kind, scope = excluded.scope, fresh = excluded.fresh, state = excluded.state,
      events_read = excluded.events_read, events_applied = excluded.events_applied,
      events_skipped = excluded.events_skipped, rows_written = excluded.rows_written, lag_left = excluded.lag_left,
      progress_interval_ms = excluded.progress_interval_ms, started_at = excluded.started_at,
      updated_at = excluded.updated_at, finished_at = excluded.finished_at, error_message = excluded.error_message`;
}

/** Rows still running, and those updated within `withinMs` of `now`; newest update first. */
export function listRecentBackfills(sql: Queryable, now: Date, withinMs: number, limit: number): Promise<BackfillStatusRow[]> {
  const since = new Date(now.getTime() - withinMs).toISOString();
  return sql<BackfillStatusRow[]>`
    select consumer_group as "consumerGroup", kind, scope, fresh, state, events_read as "eventsRead",
           events_applied as "eventsApplied", events_skipped as "eventsSkipped",
           rows_written as "rowsWritten", lag_left as "lagLeft", progress_interval_ms as "progressIntervalMs",
           started_at as "startedAt", updated_at as "updatedAt", finished_at as "finishedAt", error_message as "errorMessage"
    from ingest_backfill_status
    where state = 'running' or updated_at >= ${since}::timestamptz
    order by updated_at desc, consumer_group
    limit ${limit}`;
}
