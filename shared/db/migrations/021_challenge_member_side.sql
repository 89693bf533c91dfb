-- The member side of challenges: whether others may see badges from private challenges, and the
-- indexes the XP ladders page by (highest XP first, ties by user id).
create table challenge_badge_preference (
  user_id text primary key,
  -- Badges earned in a participation that shares with nobody are shown to fellow club members
  -- only when this is true; badges of shared participations follow the participation's flags.
  show_private_badges boolean not null default false,
  updated_at timestamptz not null default now()
);

create index xp_total_ladder_idx on xp_total (lifetime_xp desc, user_id);
