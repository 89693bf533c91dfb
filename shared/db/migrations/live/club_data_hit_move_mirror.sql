-- requires: club_data_hit_partitions
-- While a large unpartitioned club_data_hit is copied into club_data_hit_by_month (migration 031,
-- shared/ingest/hitPartitionMove.ts), every write to it is repeated there, so a row written or
-- changed during the copy is never lost: the copy skips rows the mirror already wrote, and the
-- mirror overwrites what the copy wrote before a change. The trigger goes with the old table at
-- the swap; on a database that moved inside migration 031 it is never attached.
create or replace function club_data_hit_move_mirror() returns trigger language plpgsql as $$
begin
  if tg_op = 'DELETE' then
    delete from club_data_hit_by_month where source_club_id = old.source_club_id and id = old.id and created_at = old.created_at;
    return old;
  end if;
  insert into club_data_hit_by_month (id, source_club_id, created_at, source_record_id, shooter_id, discipline, series, shot_no,
                                      value, shot_at, deleted_at, source_lsn, updated_at, source_sequence, data_lsn, data_sequence)
  values (new.id, new.source_club_id, new.created_at, new.source_record_id, new.shooter_id, new.discipline, new.series, new.shot_no,
          new.value, new.shot_at, new.deleted_at, new.source_lsn, new.updated_at, new.source_sequence, new.data_lsn, new.data_sequence)
  on conflict (source_club_id, id, created_at) do update set
    source_record_id = excluded.source_record_id, shooter_id = excluded.shooter_id, discipline = excluded.discipline,
    series = excluded.series, shot_no = excluded.shot_no, value = excluded.value, shot_at = excluded.shot_at,
    deleted_at = excluded.deleted_at, source_lsn = excluded.source_lsn, updated_at = excluded.updated_at,
    source_sequence = excluded.source_sequence, data_lsn = excluded.data_lsn, data_sequence = excluded.data_sequence;
  return new;
end
$$;

do $$
begin
  if to_regclass('club_data_hit_by_month') is not null
     and (select relkind from pg_class where oid = to_regclass('club_data_hit')) = 'r' then
    create or replace trigger club_data_hit_move_mirror after insert or update or delete on club_data_hit
      for each row execute function club_data_hit_move_mirror();
  end if;
end
$$;
