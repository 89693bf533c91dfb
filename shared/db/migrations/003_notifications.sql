-- Notifications: the server-side inbox, the stored preferences and the delivery outbox.

-- One inbox entry. `seq` breaks ties between entries created in the same microsecond, so the
-- keyset (created_at, seq) orders every user's inbox strictly.
create table notification (
  id text primary key default gen_random_uuid()::text,
  seq bigint generated always as identity,
  user_id text not null,
  title text not null,
  body text,
  tone text not null default 'info' check (tone in ('info', 'success', 'warning', 'error')),
  kind text not null,
  category text check (category in ('training', 'competition', 'board', 'youth', 'club')),
  source text not null,
  created_at timestamptz not null default now(),
  read_at timestamptz
);

-- Newest-first pages of one user's inbox.
create index notification_user_newest_idx on notification (user_id, created_at desc, seq desc);
-- The unread filter reads only unread entries.
create index notification_user_unread_idx on notification (user_id, created_at desc, seq desc) where read_at is null;

-- The unread count of every inbox, kept by statement-level triggers, so listing a page never
-- counts rows: the count is one primary-key read however large the inbox is.
create table notification_unread_count (
  user_id text primary key,
  unread integer not null
);

-- The triggers that keep it: live/notification_unread_count.sql.

-- Preferences: the canonical `notifications` block (version 1) as JSON; absent row = defaults.
create table user_settings (
  user_id text primary key,
  notifications jsonb not null,
  updated_at timestamptz not null default now()
);

-- Email and push deliveries queued by the producer function for the delivery worker.
-- A deleted inbox entry takes its deliveries with it: the user has already dealt with it.
create table notification_outbox (
  id bigint generated always as identity primary key,
  notification_id text not null references notification (id) on delete cascade,
  user_id text not null,
  channel text not null check (channel in ('email', 'push')),
  deliver_after timestamptz not null,
  digest text check (digest in ('daily', 'weekly', 'monthly')),
  cancel_key text,
  status text not null default 'pending' check (status in ('pending', 'sent', 'failed', 'cancelled')),
  attempts integer not null default 0,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

-- The worker's scan: due pending deliveries, oldest first.
create index notification_outbox_due_idx on notification_outbox (deliver_after) where status = 'pending';
create index notification_outbox_notification_idx on notification_outbox (notification_id);
create index notification_outbox_cancel_idx on notification_outbox (cancel_key) where cancel_key is not null and status = 'pending';
