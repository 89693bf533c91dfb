-- The member side of challenges: whether others may see badges from private challenges, and what
-- the XP ladders page and rank by (highest XP first, ties by user id).
create table challenge_badge_preference (
  user_id text primary key,
  -- Badges earned in a participation that shares with nobody are shown to fellow club members
  -- only when this is true; badges of shared participations follow the participation's flags.
  show_private_badges boolean not null default false,
  updated_at timestamptz not null default now()
);

-- The global ladders list who shares globally (challenge_sharing_preference). The flag is copied
-- onto the totals so that a page is one range of a partial index and a viewer's rank one
-- index-only count, without a join per row; triggers keep the copy equal to the preference.
alter table xp_total add column share_globally boolean not null default false;
alter table xp_season_total add column share_globally boolean not null default false;
update xp_total t set share_globally = true from challenge_sharing_preference p where p.user_id = t.user_id and p.share_globally;
update xp_season_total t set share_globally = true from challenge_sharing_preference p where p.user_id = t.user_id and p.share_globally;
create index xp_total_global_ladder_idx on xp_total (lifetime_xp desc, user_id) where share_globally;
create index xp_season_total_global_ladder_idx on xp_season_total (season_id, xp desc, user_id) where share_globally;
create index xp_season_total_user_idx on xp_season_total (user_id);

-- The triggers that keep the copy: live/xp_totals_sharing.sql.
