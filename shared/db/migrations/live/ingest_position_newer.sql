-- Whether an incoming position is newer than a stored one; no stored position means newer, no
-- incoming position (a delete's values) never is. Inlined by the planner (SQL, immutable).
-- Positions are explained in 007_ingest_status.sql.
create or replace function ingest_position_newer(stored_lsn bigint, stored_sequence bigint, incoming_lsn bigint, incoming_sequence bigint)
returns boolean language sql immutable parallel safe as $$
  select incoming_lsn is not null
     and (stored_lsn is null or (stored_lsn, coalesce(stored_sequence, -1)) < (incoming_lsn, coalesce(incoming_sequence, -1)))
$$;
