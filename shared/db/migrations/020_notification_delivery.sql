-- The delivery worker (shared/notifications/delivery/): the outcome of every attempt is logged
-- beside the inbox entry, the provider's last reason is kept on the outbox row, and the
-- recipient's email address and language live in their own table (the settings block stays the
-- preferences only).
alter table notification_outbox
  add column last_error text,
  add column sent_at timestamptz,
  -- The inbox entry's category at queue time: the one-click unsubscribe link of an email
  -- names the category it switches off, even after the entry itself was deleted.
  add column category text check (category in ('training', 'competition', 'board', 'youth', 'club'));

create table notification_delivery_log (
  id bigint generated always as identity primary key,
  outbox_id bigint not null references notification_outbox (id) on delete cascade,
  notification_id text references notification (id) on delete set null,
  user_id text not null,
  channel text not null check (channel in ('email', 'push')),
  attempt integer not null,
  outcome text not null check (outcome in ('sent', 'retrying', 'failed', 'skipped')),
  reason text,
  provider_id text,
  at timestamptz not null default clock_timestamp()
);

create index notification_delivery_log_notification_idx on notification_delivery_log (notification_id, at) where notification_id is not null;
create index notification_delivery_log_outbox_idx on notification_delivery_log (outbox_id);
create index notification_delivery_log_failed_idx on notification_delivery_log (at) where outcome = 'failed';

create table user_contact (
  user_id text primary key,
  email text check (email is null or (length(email) <= 254 and email like '%_@_%')),
  language text not null default 'de' check (language in ('de', 'en')),
  updated_at timestamptz not null default now()
);

-- The worker's claim: pending rows of one channel that are due, oldest first, read in index
-- order without a sort however long the outbox grows (tests/notifications/delivery.test.ts checks
-- the plan). It replaces the channel-blind due index, which left the claim a filter and a sort.
create index notification_outbox_due_channel_idx on notification_outbox (channel, deliver_after, id) where status = 'pending';
drop index notification_outbox_due_idx;
