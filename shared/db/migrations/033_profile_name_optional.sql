-- A sign-in that carries no usable name leaves the profile without one (null) instead of storing
-- the German word for a member: that word was invented data, and in the wrong language for anyone
-- reading English. Each client shows its own word in its reader's language where a name is null.
-- Profiles that got the word from a nameless sign-in lose it; one a person typed themself stays.
alter table person_profile alter column display_name drop not null;
update person_profile set display_name = null where display_name = 'Mitglied' and name_from_sign_in;
