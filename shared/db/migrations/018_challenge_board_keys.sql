-- The per-score board counts keyed the global board 'global' and a club board by the bare club
-- id, so a club whose id is literally 'global' added its club-only rows to the global board's
-- counts and shifted the ranks there. Club boards are now keyed 'club:' || club id, a space the
-- global board's key is not in.
create or replace function challenge_board_entries(status text, share_globally boolean, share_within_club boolean, club_id text)
returns setof text language sql immutable as $$
  select 'global' where status <> 'cancelled' and share_globally
  union all
  select 'club:' || club_id where status <> 'cancelled' and club_id is not null and (share_within_club or share_globally)
$$;

-- Rebuilt from the rows under a lock that holds writers back, so no trigger runs in between.
lock table challenge_participation in share mode;
delete from challenge_board_score;
insert into challenge_board_score (challenge_id, board, score, participants)
select p.challenge_id, b.board, p.score, count(*)
from challenge_participation p cross join lateral challenge_board_entries(p.status, p.share_globally, p.share_within_club, p.club_id) as b(board)
group by 1, 2, 3;
