-- A person's profile: the name others see beside their user id (boards, ladders, club lists) and
-- when they last signed in (the operators' people lookup). Created on a person's first signed-in
-- request from the token's name claims; while name_from_sign_in is true a later sign-in's name
-- replaces it, and once the person sets a name themself it stays theirs. Personal data kept
-- minimal: no email, no claims beyond the name. The language lives with the contact
-- (user_contact.language), not here.
create table person_profile (
  user_id text primary key,
  display_name text not null check (char_length(display_name) between 1 and 50),
  name_from_sign_in boolean not null default true,
  created_at timestamptz not null default now(),
  last_seen_at timestamptz not null default now()
);
-- The people lookup lists the most recently seen matches first.
create index person_profile_seen_idx on person_profile (last_seen_at desc, user_id);
