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

create function challenge_board_entries(status text, share_globally boolean, share_within_club boolean, club_id text)
returns setof text language sql immutable as $$
  select 'global' where status <> 'cancelled' and share_globally
  union all
  select club_id where status <> 'cancelled' and club_id is not null and (share_within_club or share_globally)
$$;

-- Every branch is one upsert whose rows are ordered by key, so concurrent statements lock the
-- counter rows in the same order and cannot deadlock on them (READ COMMITTED re-reads on conflict).
create function challenge_board_score_apply() returns trigger
language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    insert into challenge_board_score as counter (challenge_id, board, score, participants)
    select a.challenge_id, b.board, a.score, count(*)
    from added a cross join lateral challenge_board_entries(a.status, a.share_globally, a.share_within_club, a.club_id) as b(board)
    group by 1, 2, 3 order by 1, 2, 3
    on conflict (challenge_id, board, score) do update set participants = counter.participants + excluded.participants;
  elsif tg_op = 'DELETE' then
    insert into challenge_board_score as counter (challenge_id, board, score, participants)
    select r.challenge_id, b.board, r.score, -count(*)
    from removed r cross join lateral challenge_board_entries(r.status, r.share_globally, r.share_within_club, r.club_id) as b(board)
    group by 1, 2, 3 order by 1, 2, 3
    on conflict (challenge_id, board, score) do update set participants = counter.participants + excluded.participants;
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
  end if;
  return null;
end $$;

create trigger challenge_board_score_insert after insert on challenge_participation
  referencing new table as added for each statement execute function challenge_board_score_apply();
create trigger challenge_board_score_update after update on challenge_participation
  referencing old table as removed new table as added for each statement execute function challenge_board_score_apply();
create trigger challenge_board_score_delete after delete on challenge_participation
  referencing old table as removed for each statement execute function challenge_board_score_apply();

create function challenge_board_score_truncate() returns trigger
language plpgsql as $$
begin
  truncate challenge_board_score;
  return null;
end $$;
create trigger challenge_board_score_truncate after truncate on challenge_participation
  for each statement execute function challenge_board_score_truncate();

-- Rows that existed before the triggers.
insert into challenge_board_score (challenge_id, board, score, participants)
select p.challenge_id, b.board, p.score, count(*)
from challenge_participation p cross join lateral challenge_board_entries(p.status, p.share_globally, p.share_within_club, p.club_id) as b(board)
group by 1, 2, 3;
