-- Shot data as the ingest path applies it from the club software's change messages
-- (docs/ingest-contract.md). Ids of the club software are unique per club only, so every key is
-- (source_club_id, source_record_id). source_club_id is the club number (vereinsId).
--
-- created_at is the cloud arrival time of the first version of a row: set on insert, never
-- updated. Freshness reads it; shot_at is the device clock and updated_at the last change.
-- Deletes are soft (deleted_at) so a late, older change cannot bring a deleted row back and
-- history stays countable.
-- source_lsn is the change's position in the club database's write-ahead log: a change whose
-- position is not newer than the stored one never overwrites the row (redelivery, reordering).

alter table club_data_hit
  add column source_record_id text,
  add column shooter_id text,
  add column discipline text,
  add column series integer,
  add column shot_no integer,
  add column value numeric(4, 1),
  add column shot_at timestamptz,
  add column deleted_at timestamptz,
  add column source_lsn bigint,
  add column updated_at timestamptz;
-- Rows written before the ingest path (adopt's score-data probe) have no record id; NULLs never collide.
alter table club_data_hit add constraint club_data_hit_source_record_key unique (source_club_id, source_record_id);
-- Progress of challenges reads a shooter's hits by time.
create index club_data_hit_shooter_shot_idx on club_data_hit (source_club_id, shooter_id, shot_at) where deleted_at is null;

create table club_data_shooter (
  source_club_id text not null,
  source_record_id text not null,
  display_name text,
  birth_year integer,
  deleted boolean not null default false,
  source_lsn bigint,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (source_club_id, source_record_id)
);
