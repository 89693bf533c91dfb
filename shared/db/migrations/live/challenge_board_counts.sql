-- requires: challenge_board_entries, challenge_board_band, statement_triggers
-- How many visible rows each leaderboard holds per score (challenge_board_score, 014) and per band
-- of scores (challenge_board_band, 025), kept by statement-level triggers on challenge_participation,
-- so a viewer's rank sums a few counts instead of counting every row ahead (challenge_board_view).
--
-- Every statement upserts the per-score rows and then the per-band rows, each in key order, so
-- concurrent statements lock the counter rows in the same order and cannot deadlock on them
-- (READ COMMITTED re-reads on conflict).
create or replace function challenge_board_score_apply() returns trigger
language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    insert into challenge_board_score as counter (challenge_id, board, score, participants)
    select a.challenge_id, b.board, a.score, count(*)
    from added a cross join lateral challenge_board_entries(a.status, a.share_globally, a.share_within_club, a.club_id) as b(board)
    group by 1, 2, 3 order by 1, 2, 3
    on conflict (challenge_id, board, score) do update set participants = counter.participants + excluded.participants;
    insert into challenge_board_band as counter (challenge_id, board, band, participants)
    select a.challenge_id, b.board, challenge_board_band_of(a.score), count(*)
    from added a cross join lateral challenge_board_entries(a.status, a.share_globally, a.share_within_club, a.club_id) as b(board)
    group by 1, 2, 3 order by 1, 2, 3
    on conflict (challenge_id, board, band) do update set participants = counter.participants + excluded.participants;
  elsif tg_op = 'DELETE' then
    insert into challenge_board_score as counter (challenge_id, board, score, participants)
    select r.challenge_id, b.board, r.score, -count(*)
    from removed r cross join lateral challenge_board_entries(r.status, r.share_globally, r.share_within_club, r.club_id) as b(board)
    group by 1, 2, 3 order by 1, 2, 3
    on conflict (challenge_id, board, score) do update set participants = counter.participants + excluded.participants;
    insert into challenge_board_band as counter (challenge_id, board, band, participants)
    select r.challenge_id, b.board, challenge_board_band_of(r.score), -count(*)
    from removed r cross join lateral challenge_board_entries(r.status, r.share_globally, r.share_within_club, r.club_id) as b(board)
    group by 1, 2, 3 order by 1, 2, 3
    on conflict (challenge_id, board, band) do update set participants = counter.participants + excluded.participants;
  else
    insert into challenge_board_score as counter (challenge_id, board, score, participants)
    select challenge_id, board, score, sum(change) from (
      select a.challenge_id, b.board, a.score, 1 as change
      from added a cross join lateral challenge_board_entries(a.status, a.share_globally, a.share_within_club, a.club_id) as b(board)
      union all
      select r.challenge_id, b.board, r.score, -1 as change
      from removed r cross join lateral challenge_board_entries(r.status, r.share_globally, r.share_within_club, r.club_id) as b(board)
    ) as changes
    group by 1, 2, 3 having sum(change) <> 0 order by 1, 2, 3
    on conflict (challenge_id, board, score) do update set participants = counter.participants + excluded.participants;
    insert into challenge_board_band as counter (challenge_id, board, band, participants)
    select challenge_id, board, band, sum(change) from (
      select a.challenge_id, b.board, challenge_board_band_of(a.score) as band, 1 as change
      from added a cross join lateral challenge_board_entries(a.status, a.share_globally, a.share_within_club, a.club_id) as b(board)
      union all
      select r.challenge_id, b.board, challenge_board_band_of(r.score) as band, -1 as change
      from removed r cross join lateral challenge_board_entries(r.status, r.share_globally, r.share_within_club, r.club_id) as b(board)
    ) as changes
    group by 1, 2, 3 having sum(change) <> 0 order by 1, 2, 3
    on conflict (challenge_id, board, band) do update set participants = counter.participants + excluded.participants;
  end if;
  return null;
end $$;

-- A truncated challenge_participation leaves no counts.
call create_statement_triggers('challenge_participation', 'challenge_board_score', 'challenge_board_score_apply',
  'truncate challenge_board_score, challenge_board_band');

-- The counts rebuilt from the rows whenever this file or a file it requires changes, so they are
-- always what these triggers would have kept. The lock holds writers back (and a second rebuild),
-- so no trigger runs in between.
lock table challenge_participation in share row exclusive mode;
delete from challenge_board_score;
delete from challenge_board_band;
insert into challenge_board_score (challenge_id, board, score, participants)
select p.challenge_id, b.board, p.score, count(*)
from challenge_participation p cross join lateral challenge_board_entries(p.status, p.share_globally, p.share_within_club, p.club_id) as b(board)
group by 1, 2, 3;
insert into challenge_board_band (challenge_id, board, band, participants)
select challenge_id, board, challenge_board_band_of(score), sum(participants)
from challenge_board_score
group by 1, 2, 3;
