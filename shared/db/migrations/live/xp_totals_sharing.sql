-- The global ladders list who shares globally (challenge_sharing_preference). The flag is copied
-- onto xp_total and xp_season_total (021_challenge_member_side.sql) so that a page is one range of
-- a partial index; these triggers keep the copy equal to the preference.
create or replace function xp_totals_take_sharing() returns trigger language plpgsql as $$
begin
  new.share_globally := coalesce((select share_globally from challenge_sharing_preference where user_id = new.user_id), false);
  return new;
end $$;
create or replace trigger xp_total_take_sharing before insert on xp_total
  for each row execute function xp_totals_take_sharing();
create or replace trigger xp_season_total_take_sharing before insert on xp_season_total
  for each row execute function xp_totals_take_sharing();

create or replace function sharing_preference_to_xp_totals() returns trigger language plpgsql as $$
declare
  shared boolean := case when tg_op = 'DELETE' then false else new.share_globally end;
  owner text := case when tg_op = 'DELETE' then old.user_id else new.user_id end;
begin
  update xp_total set share_globally = shared where user_id = owner and share_globally <> shared;
  update xp_season_total set share_globally = shared where user_id = owner and share_globally <> shared;
  return null;
end $$;
create or replace trigger challenge_sharing_preference_to_xp_totals after insert or update or delete on challenge_sharing_preference
  for each row execute function sharing_preference_to_xp_totals();
