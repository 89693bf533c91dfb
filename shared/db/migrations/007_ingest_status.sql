-- Ingest operations (docs/ingest-contract.md, docs/ingest.md).
--
-- A change's source position is (lsn, sequence): the WAL position in the club database, then
-- the event's sequence number. A row keeps two positions: (source_lsn, source_sequence) of the
-- newest change of any kind, which decides whether the row is deleted, and (data_lsn,
-- data_sequence) of the newest create/update, which decides its values. A delete may carry only
-- the key; keeping the values' own position lets an older create that arrives after its delete
-- still fill them in, so every delivery order converges to the same row.
alter table club_data_hit add column source_sequence bigint, add column data_lsn bigint, add column data_sequence bigint;
alter table club_data_shooter add column source_sequence bigint, add column data_lsn bigint, add column data_sequence bigint;

-- Whether an incoming position is newer than a stored one: live/ingest_position_newer.sql.

-- One row per runner instance (the production function per app instance, part 2's worker per
-- replica). Written only while SVC_INGEST_STATUS_ENABLED is true.
create table ingest_runner_status (
  runner_id text primary key,
  runner_kind text not null check (runner_kind in ('event', 'worker')),
  worker_state text not null default 'running',
  catch_up_state text not null default 'live' check (catch_up_state in ('live', 'catching_up', 'stalled')),
  heartbeat_at timestamptz,
  last_processed_at timestamptz,
  last_source_event_at timestamptz,
  last_error_message text,
  last_error_at timestamptz,
  -- Lag, measured by the long-running worker only (the event runner has none).
  lag_sampled_at timestamptz,
  lag_error_message text,
  total_lag bigint,
  max_topic_lag bigint,
  lag_topics jsonb,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- runnerKind event has no lag and is never stalled.
  constraint ingest_runner_status_event_never_stalled check (runner_kind <> 'event' or catch_up_state <> 'stalled')
);

-- Admission and drift state, one row per runner kind, shared by all its instances: partitions
-- move between instances, the Functions heartbeat timer runs on one instance only, and a scaled-in
-- instance must not leave a state behind that nothing decays. `state` is the state machine's
-- document (shared/ingest/admission.ts), so the pure function's state round-trips unchanged.
create table ingest_admission (
  runner_kind text primary key check (runner_kind in ('event', 'worker')),
  state jsonb not null,
  updated_at timestamptz not null default now()
);

-- The newest contract rejects, bounded by INGEST_REJECT_LOG_MAX (the apply transaction trims it),
-- so operators can name the slice to reprocess: time, topic, club, entity, reason, sequence number.
create table ingest_contract_reject (
  id bigserial primary key,
  rejected_at timestamptz not null,
  runner_id text not null,
  topic text,
  club_id text,
  entity text,
  reason text not null,
  detail text not null,
  partition_id text,
  sequence_number bigint
);
create index ingest_contract_reject_club_idx on ingest_contract_reject (club_id, rejected_at desc);
