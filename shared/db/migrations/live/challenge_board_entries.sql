-- The boards a participation row counts on (challenge_board_score, challenge_board_band): 'global'
-- when shared globally; 'club:' || its club when shared within the club or globally (a club key is
-- never equal to the global board's, whatever the club's id); cancelled rows are on no board.
create or replace function challenge_board_entries(status text, share_globally boolean, share_within_club boolean, club_id text)
returns setof text language sql immutable as $$
  select 'global' where status <> 'cancelled' and share_globally
  union all
  select 'club:' || club_id where status <> 'cancelled' and club_id is not null and (share_within_club or share_globally)
$$;
