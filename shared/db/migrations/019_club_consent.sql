-- The club's data-sharing consent as its box reports it with each push (club master sync,
-- starter lists; docs/box-connector.md). One row per service club, written only when the reported
-- consent differs from the stored one; ingest refuses the club's score rows (hits, shooters)
-- while the state is not GRANTED (docs/ingest-contract.md). A club without a row has never
-- reported a consent (a box older than this release) and is not refused.
create table club_consent (
  club_id text primary key references club (id) on delete cascade,
  state text not null check (state in ('GRANTED', 'NONE', 'REVOKED')),
  -- When the box recorded the state, by the box's clock; null for NONE on a new box.
  changed_at timestamptz,
  -- When the cloud received the report that set it.
  received_at timestamptz not null,
  -- The edge token the report came with (no foreign key: a revoked or deleted token stays named).
  reported_by_token_id text not null
);

-- Every change of club_consent, written in the same transaction as the push that made it.
-- Bounded per club by count and by age: the repository trims on write.
create table club_consent_audit (
  id bigserial primary key,
  club_id text not null references club (id) on delete cascade,
  previous_state text check (previous_state in ('GRANTED', 'NONE', 'REVOKED')),
  state text not null check (state in ('GRANTED', 'NONE', 'REVOKED')),
  changed_at timestamptz,
  received_at timestamptz not null,
  reported_by_token_id text not null
);
create index club_consent_audit_club_idx on club_consent_audit (club_id, id desc);
