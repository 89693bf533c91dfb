-- The person's display name on each of their participations, kept from person_profile by the
-- triggers of live/challenge_participation_names.sql (which also fills it). A board page reads its
-- rows from the table anyway; with the name on them it no longer looks each row's person up in
-- person_profile, one index probe per row shown (docs/benchmarks.md, "Names on the board").
alter table challenge_participation add column display_name text;
