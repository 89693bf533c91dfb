-- Where a member receives push: browsers (Web Push subscriptions, sent by the service itself with
-- VAPID) and mobile apps (APNs and FCM v1 device tokens, registered as installations of the
-- Notification Hub). `address` is what identifies the device at its push service (the
-- subscription's endpoint, the device token): registering it again replaces the row, so a
-- browser that re-subscribes or an app that starts again never counts twice, and a device on
-- which another member signs in moves to that member instead of serving both.
create table push_registration (
  seq bigint generated always as identity primary key,
  id uuid not null unique default gen_random_uuid(),
  user_id text not null,
  platform text not null check (platform in ('webpush', 'apns', 'fcmv1')),
  address text not null check (length(address) between 1 and 4096),
  -- Web Push only: the subscription's keys (base64url), needed to encrypt each message.
  p256dh text check (p256dh is null or length(p256dh) <= 200),
  auth text check (auth is null or length(auth) <= 200),
  created_at timestamptz not null default now(),
  last_sent_at timestamptz,
  unique (platform, address),
  check ((platform = 'webpush') = (p256dh is not null and auth is not null))
);

create index push_registration_user_idx on push_registration (user_id, seq);
