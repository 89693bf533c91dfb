-- Notifications, review fixes: a TRUNCATE-proof and deadlock-free unread counter, deliveries that
-- survive the deletion of their inbox entry, and the user's time zone.

-- The unread counter became deadlock-free (its rows upserted in user order) and TRUNCATE-proof:
-- live/notification_unread_count.sql.

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
