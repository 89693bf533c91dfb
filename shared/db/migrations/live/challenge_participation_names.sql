-- requires: statement_triggers
-- Each participation carries its person's display name (challenge_participation.display_name,
-- 035), null without a profile, so that a board view reads the names from the rows it reads anyway
-- (challenge_board_view). person_profile stays the one place a name is changed: these triggers
-- copy it, on a new participation from the profile and on every change of a profile to that
-- person's participations. Only participations whose name differs are written, so a sign-in that
-- keeps the name writes none.

-- A new participation takes the name its person has now.
create or replace function challenge_participation_name_of_new() returns trigger
language plpgsql as $$
begin
  new.display_name := (select p.display_name from person_profile p where p.user_id = new.user_id);
  return new;
end $$;
create or replace trigger challenge_participation_name_insert before insert on challenge_participation
  for each row execute function challenge_participation_name_of_new();
create or replace trigger challenge_participation_name_user before update of user_id on challenge_participation
  for each row when (old.user_id is distinct from new.user_id) execute function challenge_participation_name_of_new();

-- A profile created, renamed or deleted: its person's participations take the new name, or none.
-- Statement-level, so that a statement writing many profiles updates their participations in one
-- statement (and fires the board counts' triggers once, not once per profile).
create or replace function person_profile_name_apply() returns trigger
language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    update challenge_participation c set display_name = a.display_name
    from added a where c.user_id = a.user_id and c.display_name is distinct from a.display_name;
  elsif tg_op = 'DELETE' then
    update challenge_participation c set display_name = null
    from removed r where c.user_id = r.user_id and c.display_name is not null;
  else
    -- A profile whose user_id changed leaves its former person's participations without a name.
    update challenge_participation c set display_name = null
    from removed r where c.user_id = r.user_id and c.display_name is not null
      and not exists (select from added a where a.user_id = r.user_id);
    update challenge_participation c set display_name = a.display_name
    from added a where c.user_id = a.user_id and c.display_name is distinct from a.display_name;
  end if;
  return null;
end $$;
-- A truncated person_profile leaves every participation without a name.
call create_statement_triggers('person_profile', 'person_profile_name', 'person_profile_name_apply',
  'update challenge_participation set display_name = null where display_name is not null');

-- The names copied again whenever this file changes, so they are always what these triggers would
-- have kept. The locks hold writers of either table back, so no trigger runs in between.
lock table person_profile, challenge_participation in share row exclusive mode;
update challenge_participation c set display_name = p.display_name
from person_profile p where c.user_id = p.user_id and c.display_name is distinct from p.display_name;
update challenge_participation c set display_name = null
where c.display_name is not null and not exists (select from person_profile p where p.user_id = c.user_id);
