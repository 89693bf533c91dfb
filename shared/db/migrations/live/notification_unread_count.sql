-- requires: statement_triggers
-- The unread count of every inbox (notification_unread_count, 003_notifications.sql), kept by
-- statement-level triggers, so listing a page never counts rows: the count is one primary-key read
-- however large the inbox is.
--
-- Each branch is `insert ... on conflict do update set unread = counter.unread + excluded.unread`.
-- That is exact only under READ COMMITTED, the service's isolation level: on a conflict the update
-- re-reads the latest committed counter row. Under REPEATABLE READ or SERIALIZABLE two concurrent
-- writers of one user would fail with a serialization error instead (nothing would be miscounted,
-- but the statement would have to be retried).
--
-- Every branch is an upsert whose rows are ordered by user_id, so two concurrent statements that
-- touch several users' counters (a bulk insert, a cap prune, a bulk delete) lock the counter rows
-- in the same order and cannot deadlock on them.
create or replace function notification_unread_count_apply() returns trigger
language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    insert into notification_unread_count as counter (user_id, unread)
    select user_id, count(*) from added where read_at is null group by user_id order by user_id
    on conflict (user_id) do update set unread = counter.unread + excluded.unread;
  elsif tg_op = 'DELETE' then
    -- A counter row exists for every user with unread entries (the insert branch made it), so
    -- the conflict arm is the one taken; the insert arm only guards against a missing row.
    insert into notification_unread_count as counter (user_id, unread)
    select user_id, -count(*) from removed where read_at is null group by user_id order by user_id
    on conflict (user_id) do update set unread = counter.unread + excluded.unread;
  else
    insert into notification_unread_count as counter (user_id, unread)
    select user_id, sum(change) from (
      select user_id, 1 as change from added where read_at is null
      union all
      select user_id, -1 as change from removed where read_at is null
    ) as changes
    group by user_id
    having sum(change) <> 0
    order by user_id
    on conflict (user_id) do update set unread = counter.unread + excluded.unread;
  end if;
  return null;
end $$;

-- TRUNCATE fires no row or transition-table triggers; without its own the counter would keep
-- counting entries that no longer exist.
call create_statement_triggers('notification', 'notification_unread_count', 'notification_unread_count_apply',
  'truncate notification_unread_count');
