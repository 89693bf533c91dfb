-- Challenges: templates, participations, badges, the XP ledger with seasons, sharing preferences
-- and the member <-> shooter link. Enum spellings are documented in docs/challenges.md.

-- Badge registry keyed by the rewardBadge string of a challenge's rules.
create table challenge_badge (
  key text primary key check (key ~ '^[a-z0-9][a-z0-9_-]{1,63}$'),
  name text not null,
  icon text not null,
  colour text not null check (colour ~ '^#[0-9a-fA-F]{6}$'),
  description text not null,
  quality text not null check (quality in ('iron', 'bronze', 'silver', 'gold', 'platinum', 'diamond')),
  updated_at timestamptz not null default now()
);

create table challenge (
  id text primary key default gen_random_uuid()::text,
  -- Seeding's upsert key (`global-100-shots`); null for templates created over the API.
  preset_key text unique,
  -- Regeneration key of an adaptive personal template: one per user and metric.
  personalization_key text unique,
  scope text not null check (scope in ('global', 'club', 'personal')),
  club_id text references club (id) on delete cascade,
  personalized_for_user_id text,
  title text not null,
  description text,
  difficulty text not null check (difficulty in ('easy', 'medium', 'hard', 'expert')),
  duration_days integer not null check (duration_days between 1 and 366),
  -- A fixed end shared by every participant (knockout needs one); otherwise join + duration.
  ends_at timestamptz,
  lower_level text check (lower_level in ('iron', 'bronze', 'silver', 'gold', 'platinum', 'diamond')),
  upper_level text check (upper_level in ('iron', 'bronze', 'silver', 'gold', 'platinum', 'diamond')),
  default_visibility text not null default 'private' check (default_visibility in ('private', 'club', 'global')),
  reward_xp integer not null check (reward_xp between 0 and 100000),
  rules jsonb not null,
  price_cents integer check (price_cents >= 0),
  created_by text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check ((scope = 'club') = (club_id is not null)),
  check (scope = 'personal' or personalized_for_user_id is null)
);
create index challenge_list_idx on challenge (created_at desc, id desc);
create index challenge_club_idx on challenge (club_id) where club_id is not null;
create index challenge_personal_idx on challenge (personalized_for_user_id) where personalized_for_user_id is not null;

create table challenge_participation (
  id text primary key default gen_random_uuid()::text,
  challenge_id text not null references challenge (id) on delete cascade,
  user_id text not null,
  -- The club whose board the row appears on (the challenge's club, or the one chosen at join).
  club_id text references club (id) on delete set null,
  status text not null default 'active' check (status in ('active', 'completed', 'failed', 'cancelled')),
  -- The rules and deadline as they were at join: template edits never change a running attempt.
  rules jsonb not null,
  reward_xp integer not null,
  joined_at timestamptz not null default now(),
  deadline_at timestamptz not null,
  progress jsonb,
  result jsonb,
  -- The leaderboard value and when it was first reached (ties go to the earlier).
  score numeric(12, 2) not null default 0,
  score_reached_at timestamptz not null default now(),
  share_within_club boolean not null default false,
  share_globally boolean not null default false,
  evaluated_at timestamptz,
  finished_at timestamptz,
  unique (challenge_id, user_id)
);
create index challenge_participation_user_idx on challenge_participation (user_id, joined_at desc);
create index challenge_participation_active_deadline_idx on challenge_participation (deadline_at) where status = 'active';
-- Leaderboard pages: an index range in board order, only over rows others may see.
create index challenge_participation_global_board_idx
  on challenge_participation (challenge_id, score desc, score_reached_at, id)
  where share_globally and status <> 'cancelled';
create index challenge_participation_club_board_idx
  on challenge_participation (challenge_id, club_id, score desc, score_reached_at, id)
  where (share_within_club or share_globally) and status <> 'cancelled';

-- Earned badges: one per user, badge and challenge, whatever races happen.
create table challenge_user_badge (
  user_id text not null,
  badge_key text not null references challenge_badge (key),
  challenge_id text not null references challenge (id) on delete cascade,
  participation_id text not null references challenge_participation (id) on delete cascade,
  earned_at timestamptz not null default now(),
  primary key (user_id, badge_key, challenge_id)
);
create index challenge_user_badge_user_idx on challenge_user_badge (user_id, earned_at);

-- Seasons of the XP ladder. A reset starts a new season; nothing is deleted.
create table xp_season (
  id text primary key default gen_random_uuid()::text,
  name text not null,
  starts_at timestamptz not null,
  ends_at timestamptz,
  created_at timestamptz not null default now(),
  check (ends_at is null or ends_at > starts_at)
);
-- At most one open season.
create unique index xp_season_one_open_idx on xp_season ((true)) where ends_at is null;

-- Append-only: every XP payout, once per (user, source).
create table xp_ledger (
  id bigint generated always as identity primary key,
  user_id text not null,
  amount integer not null check (amount > 0),
  source_kind text not null check (source_kind in ('challenge')),
  source_id text not null,
  season_id text references xp_season (id),
  created_at timestamptz not null default now(),
  unique (user_id, source_kind, source_id)
);
create index xp_ledger_user_idx on xp_ledger (user_id, created_at);

-- Append-only by its triggers: live/xp_ledger_append_only.sql.

-- Running totals written in the ledger insert's transaction, so reading XP is one key lookup.
create table xp_total (
  user_id text primary key,
  lifetime_xp bigint not null default 0
);
create table xp_season_total (
  season_id text not null references xp_season (id),
  user_id text not null,
  xp bigint not null default 0,
  primary key (season_id, user_id)
);
create index xp_season_total_ladder_idx on xp_season_total (season_id, xp desc, user_id);

-- The sharing flags a new participation starts with; no row means both off.
create table challenge_sharing_preference (
  user_id text primary key,
  share_within_club boolean not null default false,
  share_globally boolean not null default false,
  updated_at timestamptz not null default now()
);

-- Which shooter record of the club software is this member. A member claims it; a club leader
-- confirms or rejects the claim. Progress reads only confirmed links.
create table challenge_shooter_link (
  id text primary key default gen_random_uuid()::text,
  club_id text not null references club (id) on delete cascade,
  user_id text not null,
  -- club_data_shooter.source_record_id = club_data_hit.shooter_id in the club's number space.
  shooter_id text not null,
  status text not null default 'pending' check (status in ('pending', 'confirmed', 'rejected')),
  requested_at timestamptz not null default now(),
  decided_at timestamptz,
  decided_by text
);
-- One open (pending or confirmed) claim per member and club; one confirmed member per shooter.
create unique index challenge_shooter_link_member_idx on challenge_shooter_link (club_id, user_id) where status in ('pending', 'confirmed');
create unique index challenge_shooter_link_shooter_idx on challenge_shooter_link (club_id, shooter_id) where status = 'confirmed';
create index challenge_shooter_link_user_idx on challenge_shooter_link (user_id) where status = 'confirmed';
