import type { Queryable } from '../db/client';
import type { CatchUpState, LagSummary } from './catchUp';
import type { RunnerIdentity } from './statusRepository';

/**
 * The staging worker's own writes to its status row (runnerKind `worker`, one row per replica):
 * start, lag samples with catchUpState, and the stop. Batches write their progress through the
 * apply core like every runner.
 */

export async function recordWorkerStarted(sql: Queryable, runner: RunnerIdentity, now: Date): Promise<void> {
  const at = now.toISOString();
  await sql`
    insert into ingest_runner_status as t (runner_id, runner_kind, worker_state, heartbeat_at, updated_at)
    values (${runner.id}, ${runner.kind}, 'running', ${at}::timestamptz, ${at}::timestamptz)
    on conflict (runner_id) do update set
      worker_state = 'running', heartbeat_at = excluded.heartbeat_at, last_error_message = null, updated_at = excluded.updated_at`;
}

export type LagReading = { ok: true; summary: LagSummary; catchUpState: CatchUpState } | { ok: false; error: string };

/** A lag sample: the figures and catchUpState, or only the error text (the last figures stay). */
export async function recordLagSample(sql: Queryable, runner: RunnerIdentity, now: Date, reading: LagReading): Promise<void> {
  const at = now.toISOString();
  if (!reading.ok) {
    await sql`
      insert into ingest_runner_status as t (runner_id, runner_kind, heartbeat_at, lag_sampled_at, lag_error_message, updated_at)
      values (${runner.id}, ${runner.kind}, ${at}::timestamptz, ${at}::timestamptz, ${reading.error}, ${at}::timestamptz)
      on conflict (runner_id) do update set
        lag_sampled_at = excluded.lag_sampled_at, lag_error_message = excluded.lag_error_message, updated_at = excluded.updated_at`;
    return;
  }
  const { totalLag, maxTopicLag, lagTopics } = reading.summary;
  await sql`
    insert into ingest_runner_status as t (runner_id, runner_kind, heartbeat_at, catch_up_state, lag_sampled_at, lag_error_message,
                                           total_lag, max_topic_lag, lag_topics, updated_at)
    values (${runner.id}, ${runner.kind}, ${at}::timestamptz, ${reading.catchUpState}, ${at}::timestamptz, null,
            ${totalLag}, ${maxTopicLag}, ${sql.json(lagTopics as never)}, ${at}::timestamptz)
    on conflict (runner_id) do update set
      catch_up_state = excluded.catch_up_state, lag_sampled_at = excluded.lag_sampled_at, lag_error_message = null,
      total_lag = excluded.total_lag, max_topic_lag = excluded.max_topic_lag, lag_topics = excluded.lag_topics,
      updated_at = excluded.updated_at`;
}

/** The worker stopped on a signal: its row says so until it starts again. */
export async function recordWorkerStopped(sql: Queryable, runner: RunnerIdentity, now: Date): Promise<void> {
  const at = now.toISOString();
  await sql`
    update ingest_runner_status set worker_state = 'stopped', updated_at = ${at}::timestamptz
    where runner_id = ${runner.id}`;
}
