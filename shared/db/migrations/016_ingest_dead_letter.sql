-- Dead letters of the ingest (docs/ingest.md, docs/runbook-ingest.md): events that passed the
-- contract but that the database refused for a reason a retry cannot fix (a data exception, a
-- constraint violation). The apply core isolates each one so the rest of its batch is applied and
-- the partition moves on; the record keeps what an operator needs to find the cause and to replay
-- the event once it is fixed. Text columns are cut to a few hundred characters before they are
-- written; the event itself is kept as bytes (any content stores) up to 64 KiB. Bounded by count
-- (INGEST_DEAD_LETTER_MAX) and age (INGEST_DEAD_LETTER_MAX_AGE_DAYS): the core trims on write.
create table ingest_dead_letter (
  id bigserial primary key,
  dead_at timestamptz not null,
  runner_id text not null,
  reason text not null check (reason in ('apply_failed')),
  sql_state text,
  detail text not null,
  topic text,
  club_id text,
  entity text,
  partition_id text,
  sequence_number bigint,
  enqueued_at timestamptz,
  -- JSON of {body, properties} as received; null when it was larger than the cap.
  message bytea,
  replay_attempts integer not null default 0,
  last_replay_at timestamptz,
  last_replay_error text,
  replayed_at timestamptz
);
create index ingest_dead_letter_club_idx on ingest_dead_letter (club_id, dead_at desc);
create index ingest_dead_letter_dead_at_idx on ingest_dead_letter (dead_at);
create index ingest_contract_reject_rejected_at_idx on ingest_contract_reject (rejected_at);
