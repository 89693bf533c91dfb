-- Notifications, review fixes: a TRUNCATE-proof and deadlock-free unread counter, deliveries that
-- survive the deletion of their inbox entry, and the user's time zone.

-- The unread counter (notification_unread_count) is maintained by statement-level triggers with
-- `insert ... on conflict do update set unread = counter.unread + excluded.unread`. That is exact
-- only under READ COMMITTED, the service's isolation level: on a conflict the update re-reads the
-- latest committed counter row. Under REPEATABLE READ or SERIALIZABLE two concurrent writers of
-- one user would fail with a serialization error instead (nothing would be miscounted, but the
-- statement would have to be retried).
--
-- Every branch is an upsert whose rows are ordered by user_id, so two concurrent statements that
-- touch several users' counters (a bulk insert, a cap prune, a bulk delete) lock the counter rows
-- in the same order and cannot deadlock on them. The delete branch used to be an UPDATE ... FROM,
-- whose row order PostgreSQL does not define.
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

-- TRUNCATE fires no row or transition-table triggers; without this the counter would keep
-- counting entries that no longer exist.
create function notification_unread_count_truncate() returns trigger
language plpgsql as $$
begin
  truncate notification_unread_count;
  return null;
end $$;

create trigger notification_unread_count_truncate after truncate on notification
  for each statement execute function notification_unread_count_truncate();

-- Deliveries outlive their inbox entry: deleting the entry (by the user, by clear, or by the
-- inbox cap) no longer cancels a pending email or push, critical or queued for a digest. The
-- outbox row keeps a snapshot of what to send; withdrawing deliveries is cancel_key's job.
alter table notification_outbox add column title text, add column body text, add column tone text;
update notification_outbox as outbox
set title = entry.title, body = entry.body, tone = entry.tone
from notification as entry
where entry.id = outbox.notification_id;
alter table notification_outbox
  alter column title set not null,
  alter column tone set not null,
  add constraint notification_outbox_tone_check check (tone in ('info', 'success', 'warning', 'error'));

alter table notification_outbox drop constraint notification_outbox_notification_id_fkey;
alter table notification_outbox alter column notification_id drop not null;
alter table notification_outbox add constraint notification_outbox_notification_id_fkey
  foreign key (notification_id) references notification (id) on delete set null;

-- The IANA time zone in which the user's clock times (quiet hours, summary time) and summary
-- days are meant. Rows stored before this migration were written under the old contract (times
-- read as UTC), so they keep 'UTC'; every row created from now on defaults to the service's home
-- zone, Europe/Berlin, which the code's DEFAULT_TIME_ZONE repeats for users without a row.
alter table user_settings add column time_zone text not null default 'UTC';
alter table user_settings alter column time_zone set default 'Europe/Berlin';
