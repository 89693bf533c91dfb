-- Leaderboard ranks from coarser counts. A viewer's rank summed challenge_board_score (014) over
-- every distinct score above theirs: about 250 rows for a viewer in the middle of a board of 500
-- scores, the largest part of a mid-board view. Here the triggers also keep a count per band of
-- scores, a band being the scores that agree in their first two significant digits (250 to 259.99,
-- 9.5 to 9.59, 1,200 to 1,299.99; below 1, each whole number: 0 to 0.99, -1 to -0.01, ...). A rank
-- sums the higher scores of the own band one by one and the higher bands as one row each: for the
-- same viewer about 35 rows. Whatever the scale of a challenge's scores, a band holds at most 100
-- distinct scores (two decimals) and a decade 90 bands, so the rows summed stay few.

create table challenge_board_band (
  challenge_id text not null,
  board text not null,
  band numeric(12, 2) not null,
  participants integer not null,
  primary key (challenge_id, board, band)
);

-- The bands (live/challenge_board_band.sql), the triggers that keep both counts and the counts of
-- the rows that exist (live/challenge_board_counts.sql), and the rank from them
-- (live/challenge_board_view.sql).
