-- Backfill and replay status (docs/ingest-worker.md, "Backfill and replay"). One row per consumer
-- group: a rerun with the same (stable) group overwrites its row. Written by the backfill commands
-- at the start, on each progress tick and at the end; read by the ingest health's `backfills`
-- (detail only). A row left `running` by a process that died shows as stale in health.
create table ingest_backfill_status (
  consumer_group text primary key,
  kind text not null check (kind in ('records', 'shooters')),
  -- {"clubIds": [...]} for shooters, {"records": [{"clubId", "recordId"}, ...]} for records.
  scope jsonb not null,
  fresh boolean not null default false,
  state text not null check (state in ('running', 'done', 'failed', 'refused')),
  events_read bigint not null default 0,
  events_applied bigint not null default 0,
  events_skipped bigint not null default 0,
  rows_written bigint not null default 0,
  lag_left bigint,
  -- How often a running backfill writes: health calls a running row stale after a few of these.
  progress_interval_ms integer not null check (progress_interval_ms > 0),
  started_at timestamptz not null,
  updated_at timestamptz not null,
  finished_at timestamptz,
  error_message text,
  check ((state = 'running') = (finished_at is null))
);

-- Health lists the running rows and those updated within the last 24 hours, newest first.
create index ingest_backfill_status_updated on ingest_backfill_status (updated_at desc);
