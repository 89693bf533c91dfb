-- A contact email is used only once its owner confirmed it by a link (docs/notifications.md,
-- Contact details). `email` stays the address in use; addresses stored before confirmation
-- existed were typed by their signed-in owner and stay in use, confirmed as of their last change.
alter table user_contact
  add column email_confirmed_at timestamptz,
  add column pending_email text check (pending_email is null or (length(pending_email) <= 254 and pending_email like '%_@_%'));
update user_contact set email_confirmed_at = updated_at where email is not null;

-- One row per confirmation link sent. The link's token is never stored, only its SHA-256; a row
-- is used once (`used_at`), ends after 24 h (`expires_at`) or when a newer link replaces it
-- (`superseded_at`). Removing the address empties `email` of the member's rows at once; the rows
-- stay (they count towards the daily limit of links) and go two days after they were made.
create table user_contact_confirmation (
  id uuid primary key default gen_random_uuid(),
  user_id text not null,
  email text check (email is null or (length(email) <= 254 and email like '%_@_%')),
  token_hash bytea not null check (length(token_hash) = 32),
  expires_at timestamptz not null,
  used_at timestamptz,
  superseded_at timestamptz,
  created_at timestamptz not null default now()
);
create index user_contact_confirmation_open_idx on user_contact_confirmation (user_id) where used_at is null and superseded_at is null;

-- A confirmation email goes to the address being confirmed, not to the member's address in use:
-- its outbox row names the confirmation, and the email channel renders the link at send time.
alter table notification_outbox
  add column contact_confirmation_id uuid references user_contact_confirmation (id) on delete cascade;

-- The training streak's warning before a week ends without training: one per member and ISO
-- week (`2026-W47`), so the timer that runs every 15 minutes writes it once.
create table challenge_streak_warning (
  user_id text not null,
  iso_week text not null check (iso_week ~ '^[0-9]{4}-W[0-9]{2}$'),
  created_at timestamptz not null default now(),
  primary key (user_id, iso_week)
);
