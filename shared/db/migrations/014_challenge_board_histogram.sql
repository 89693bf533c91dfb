-- How many visible rows each leaderboard holds per score, kept by statement-level triggers, so a
-- viewer's rank is a sum over the distinct scores above theirs plus the ties ahead of them, not a
-- count over every row ahead. Boards: 'global' (shareGlobally) and each club id (shareWithinClub
-- or shareGlobally, rows of that club); cancelled rows are on no board.
create table challenge_board_score (
  challenge_id text not null,
  board text not null,
  score numeric(12, 2) not null,
  participants integer not null,
  primary key (challenge_id, board, score)
);

-- The boards a row counts on, the triggers that keep the counts and the counts of the rows that
-- exist: live/challenge_board_entries.sql, live/challenge_board_counts.sql.
