-- The leaderboard's own-row lookup for a viewer with many participations. challenge_board_view
-- finds the viewer's row by (challenge_id, user_id) under generic plans. Where most users have
-- about one participation, the planner prices the unique (challenge_id, user_id) index and the
-- user index (user_id, joined_at) alike, one row each, and takes the smaller: the user index.
-- That index could only narrow to the user, so a viewer with hundreds of participations had each
-- of them fetched from the table and filtered out, on every view of every board.
--
-- The user index gains the challenge as its last key column. Its order is unchanged for the lists
-- by user (newest joined first), and whichever index the planner now takes, the challenge is
-- matched in the index: the viewer's other participations are skipped there, and only the own
-- row is read from the table.

create index challenge_participation_user_challenge_idx on challenge_participation (user_id, joined_at desc, challenge_id);
drop index challenge_participation_user_idx;
alter index challenge_participation_user_challenge_idx rename to challenge_participation_user_idx;
