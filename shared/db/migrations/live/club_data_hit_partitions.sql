-- The month partitions of club_data_hit (migration 031, docs/decisions/016-hit-partitions.md).
--
-- club_data_hit_partitioned() names the partitioned table: club_data_hit once the move from the
-- unpartitioned table is done, club_data_hit_by_month while it runs.
create or replace function club_data_hit_partitioned() returns regclass language sql stable as $$
  select c.oid::regclass from pg_class c
  where c.relname in ('club_data_hit', 'club_data_hit_by_month') and c.relkind = 'p'
    and c.relnamespace = (select oid from pg_namespace where nspname = current_schema())
$$;

-- Adds the partition of one UTC month (club_data_hit_pYYYY_MM), unless it exists; answers whether
-- it made it. Rows of that month already in the default partition move into it, so a month can be
-- added after the fact and the default stays small. The partition is built as a table of its
-- own with a CHECK of its bounds and then attached: ATTACH needs only a SHARE UPDATE EXCLUSIVE
-- lock on the parent (inserts go on), and the CHECK spares it the scan of the new table. The
-- caller sets lock_timeout, so a busy table makes it give up instead of queueing writers.
create or replace function club_data_hit_add_month(month_start date) returns boolean language plpgsql as $$
declare
  parent regclass := club_data_hit_partitioned();
  name text := format('club_data_hit_p%s', to_char(month_start, 'YYYY_MM'));
  lower_bound timestamptz := date_trunc('month', month_start)::timestamp at time zone 'UTC';
  upper_bound timestamptz := (date_trunc('month', month_start) + interval '1 month')::timestamp at time zone 'UTC';
begin
  if parent is null or to_regclass(name) is not null then
    return false;
  end if;
  execute format('create table %I (like %s including defaults)', name, parent);
  execute format('alter table %I add constraint %I check (created_at >= %L and created_at < %L)', name, name || '_bounds', lower_bound, upper_bound);
  execute format('with moved as (delete from club_data_hit_default where created_at >= %L and created_at < %L returning *) insert into %I select * from moved',
                 lower_bound, upper_bound, name);
  execute format('alter table %s attach partition %I for values from (%L) to (%L)', parent, name, lower_bound, upper_bound);
  execute format('alter table %I drop constraint %I', name, name || '_bounds');
  return true;
end
$$;

-- A new database (and one just moved inside migration 031) starts with this month and the next
-- three; the hourly maintenance keeps them ahead from then on.
select club_data_hit_add_month((date_trunc('month', now() at time zone 'UTC') + make_interval(months => ahead))::date)
from generate_series(0, 3) as ahead;
select club_data_hit_add_month(month::date)
from (select distinct date_trunc('month', created_at at time zone 'UTC') as month from club_data_hit_default) as held
where month > now() - interval '10 years';
