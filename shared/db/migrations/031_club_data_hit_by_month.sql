-- Hits in monthly partitions by arrival time (created_at), with a default partition so that no
-- row is ever refused, and old months dropped after HIT_RETENTION_MONTHS
-- (docs/decisions/016-hit-partitions.md, docs/ingest.md "Hit partitions").
--
-- created_at is the partition key: set on insert and never updated, so a row never moves
-- between partitions (shot_at is the box's clock, can be missing and changes with an update).
-- Every key of a partitioned table must hold the partition key, so (source_club_id,
-- source_record_id) can no longer be unique across the table: ingest keeps it unique itself
-- under a per-key advisory lock (shared/ingest/hitUpsert.ts). Each key starts with the club, the
-- column a distributed (Citus) table would be split by.
--
-- The month partitions are made by club_data_hit_add_month (live/club_data_hit_partitions.sql)
-- and the hourly maintenance, never here: a numbered migration cannot call a live function.

create table club_data_hit_by_month (
  id bigint not null default nextval('club_data_hit_id_seq'),
  source_club_id text not null,
  created_at timestamptz not null default now(),
  source_record_id text,
  shooter_id text,
  discipline text,
  series integer,
  shot_no integer,
  value numeric(4, 1),
  shot_at timestamptz,
  deleted_at timestamptz,
  source_lsn bigint,
  updated_at timestamptz,
  source_sequence bigint,
  data_lsn bigint,
  data_sequence bigint,
  constraint club_data_hit_club_id_pkey primary key (source_club_id, id, created_at)
) partition by range (created_at);

-- Ingest finds a record's row by this key in every partition (its prefix without the time).
create unique index club_data_hit_club_record_at_key on club_data_hit_by_month (source_club_id, source_record_id, created_at);
-- Freshness: a club's newest arrivals.
create index club_data_hit_club_created_idx on club_data_hit_by_month (source_club_id, created_at desc);
-- Progress of challenges reads a shooter's hits by time.
create index club_data_hit_club_shooter_shot_idx on club_data_hit_by_month (source_club_id, shooter_id, shot_at) where deleted_at is null;

create table club_data_hit_default partition of club_data_hit_by_month default;

-- The online move from the unpartitioned table (shared/ingest/hitPartitionMove.ts): how far the
-- batched copy has come, in id order. One row; finished_at is set by the swap.
create table club_data_hit_move (
  singleton boolean primary key default true check (singleton),
  copied_through_id bigint not null default 0,
  started_at timestamptz not null default now(),
  finished_at timestamptz
);
insert into club_data_hit_move default values;

-- A small table moves here and now, inside this transaction (a few seconds of lock at most);
-- a large one stays in place and is copied online by the maintenance, batch by batch, while
-- a trigger (live/club_data_hit_move_mirror.sql) mirrors every write into the new table.
do $$
begin
  if (select count(*) from (select 1 from club_data_hit limit 50001) as probe) <= 50000 then
    lock table club_data_hit in access exclusive mode;
    insert into club_data_hit_by_month (id, source_club_id, created_at, source_record_id, shooter_id, discipline, series, shot_no,
                                        value, shot_at, deleted_at, source_lsn, updated_at, source_sequence, data_lsn, data_sequence)
    select id, source_club_id, created_at, source_record_id, shooter_id, discipline, series, shot_no,
           value, shot_at, deleted_at, source_lsn, updated_at, source_sequence, data_lsn, data_sequence
    from club_data_hit;
    alter sequence club_data_hit_id_seq owned by club_data_hit_by_month.id;
    drop table club_data_hit;
    alter table club_data_hit_by_month rename to club_data_hit;
    update club_data_hit_move set copied_through_id = coalesce((select max(id) from club_data_hit), 0), finished_at = now();
  end if;
end
$$;
