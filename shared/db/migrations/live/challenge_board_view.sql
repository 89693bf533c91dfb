-- One leaderboard view in one call (boardPage, shared/challenges/leaderboardRepository.ts): the
-- viewer's own row (whatever its sharing), the next page of visible rows of others after the cursor
-- and, only when the own row is not on that page, its rank's count and its two nearest visible
-- neighbours each side. Each part is a statement of its own, planned once per session and run only
-- when needed: as one SQL statement every call paid the executor start-up of the off-page parts, on
-- the page or not; as two statements an off-page viewer paid a second round trip.
--
-- The board is the global one when board_club_id is null, else that club's: others' rows shared
-- globally, or shared within the club or globally and of that club; cancelled rows are on neither.
-- The viewer's own row counts when not cancelled (and of that club on a club board). A page starts
-- after the position (after_score, after_reached_at, after_id) in board order, or at the top when
-- after_score is null.
-- Rows: part 'page' (board order, `page_size + 1` at most: the one more shows whether a next page
-- exists), 'own' (at most one), 'previous' and 'next' (nearest first, two at most). `ahead` is set
-- on the own row when it is off the page: the visible rows ahead of it, the own row's rank less
-- one. The sharing columns and the club are set on the own row only: others' rows are visible on
-- the board by definition. "displayName" is the person's name as their participation carries it
-- (challenge_participation_names.sql): read from the rows the statements read anyway, where a
-- lookup in person_profile per row returned cost an index probe each.
--
-- A rank sums the higher scores of the own band one by one and the higher bands as one count each
-- (challenge_board_counts.sql, challenge_board_band.sql): for a viewer in the middle of a board of
-- 500 scores about 35 rows instead of 250.
--
-- The global board and a club's board are read from different partial indexes
-- (013_challenges.sql), so the function holds each statement once per board: one statement planned
-- for either board could use neither index. The statements are written once below, in
-- board_statements, with {board} standing for the board's rows, and the function is created with
-- them twice, once with each board's condition.

-- The result's columns changed (035 added "displayName"): a function's result type is not replaced.
drop function if exists challenge_board_view(text, text, text, integer, numeric, timestamptz, text);

do $generate$
declare
  board_statements constant text := $statements$
    return query
      select 'page', p.id, p.user_id, p.score::text, (p.score_reached_at at time zone 'UTC')::text,
        p.status, null::boolean, null::boolean, null::text, null::integer, p.display_name
      from challenge_participation p
      where p.challenge_id = board_challenge_id and {board} and p.user_id <> viewer_id
        and p.score <= from_score and (p.score < from_score or (p.score_reached_at, p.id) > (after_reached_at, after_id))
      order by p.score desc, p.score_reached_at, p.id
      limit page_size + 1;
    if own_id is null then
      return;
    end if;
    own_band_end := challenge_board_band_end(own_score);

    -- The own row is on the page, as the caller merges it, when it comes after the cursor and fewer
    -- than page_size visible rows lie between the cursor and it. After a cursor the rows between
    -- are looked for on the index, the ties reached earlier and the higher scores as two ranges
    -- with exact bounds, only as far as the page_size-th. On a first page those are all the rows
    -- ahead of it, so the rank's count decides (for an own row on the page there are few scores
    -- and ties above it to count). The rank's count is made for a first page and for an own row
    -- off the page: the visible rows on higher scores (the own band's per-score counts above the
    -- own score and the per-band counts above the own band) plus the ties reached earlier.
    if after_score is not null then
      own_on_page := false;
      if own_score < after_score or (own_score = after_score and (own_at, own_id) > (after_reached_at, after_id)) then
        perform from (
          (select from challenge_participation p
            where p.challenge_id = board_challenge_id and {board}
              and p.score = own_score and (p.score_reached_at, p.id) < (own_at, own_id)
              and (p.score < from_score or (p.score_reached_at, p.id) > (after_reached_at, after_id)))
          union all
          (select from challenge_participation p
            where p.challenge_id = board_challenge_id and {board}
              and p.score > own_score and p.score <= from_score
              and (p.score < from_score or (p.score_reached_at, p.id) > (after_reached_at, after_id)))
        ) as ahead_of_own offset page_size - 1 limit 1;
        own_on_page := not found;
      end if;
    end if;
    if after_score is null or not own_on_page then
      select
        (select coalesce(sum(c.participants), 0)::integer from challenge_board_score c
         where c.challenge_id = board_challenge_id and c.board = board_key and c.score > own_score and c.score < own_band_end)
        + (select coalesce(sum(c.participants), 0)::integer from challenge_board_band c
           where c.challenge_id = board_challenge_id and c.board = board_key and c.band >= own_band_end)
        + (select count(*)::integer from challenge_participation p
           where p.challenge_id = board_challenge_id and {board}
             and p.score = own_score and (p.score_reached_at, p.id) < (own_at, own_id))
      into own_ahead;
      if after_score is null then
        own_on_page := own_ahead < page_size;
      end if;
    end if;

    part := 'own';
    id := own_id;
    "userId" := own_user_id;
    score := own_score_text;
    "reachedAt" := own_reached_text;
    status := own_status;
    "sharedGlobally" := own_shared_globally;
    "sharedWithinClub" := own_shared_within_club;
    "clubId" := own_club_id;
    ahead := case when own_on_page then null else own_ahead end;
    "displayName" := own_display_name;
    return next;
    if own_on_page then
      return;
    end if;

    -- Off the page: two visible neighbours each side, nearest first, each side from two exact index
    -- ranges in nearness order: the own score's ties past the own row, and only when they gave
    -- fewer than two the scores beyond (a neighbour among the ties is always nearer than any other
    -- score). The row comparison after the score equality is an index bound; as one range,
    -- `score >= own and (score > own or (reached, id) < own)`, the scan would walk the own score's
    -- ties on the wrong side of the own row from the heap. Each range is a statement of its own,
    -- appended to the result in this order: as one statement that merged and ordered the four
    -- ranges, the neighbours cost twice the page statement.
    return query
      select 'previous', p.id, p.user_id, p.score::text, (p.score_reached_at at time zone 'UTC')::text,
        p.status, null::boolean, null::boolean, null::text, null::integer, p.display_name
      from challenge_participation p
      where p.challenge_id = board_challenge_id and {board}
        and p.score = own_score and (p.score_reached_at, p.id) < (own_at, own_id)
      order by p.score_reached_at desc, p.id desc
      limit 2;
    get diagnostics neighbours = row_count;
    if neighbours < 2 then
      return query
        select 'previous', p.id, p.user_id, p.score::text, (p.score_reached_at at time zone 'UTC')::text,
          p.status, null::boolean, null::boolean, null::text, null::integer, p.display_name
        from challenge_participation p
        where p.challenge_id = board_challenge_id and {board} and p.score > own_score
        order by p.score, p.score_reached_at desc, p.id desc
        limit 2 - neighbours;
    end if;
    return query
      select 'next', p.id, p.user_id, p.score::text, (p.score_reached_at at time zone 'UTC')::text,
        p.status, null::boolean, null::boolean, null::text, null::integer, p.display_name
      from challenge_participation p
      where p.challenge_id = board_challenge_id and {board}
        and p.score = own_score and (p.score_reached_at, p.id) > (own_at, own_id)
      order by p.score_reached_at, p.id
      limit 2;
    get diagnostics neighbours = row_count;
    if neighbours < 2 then
      return query
        select 'next', p.id, p.user_id, p.score::text, (p.score_reached_at at time zone 'UTC')::text,
          p.status, null::boolean, null::boolean, null::text, null::integer, p.display_name
        from challenge_participation p
        where p.challenge_id = board_challenge_id and {board} and p.score < own_score
        order by p.score desc, p.score_reached_at, p.id
        limit 2 - neighbours;
    end if;
$statements$;
  -- Others' rows shared globally; for a club, those shared within it or globally. Never cancelled ones.
  global_board constant text := $$p.share_globally and p.status <> 'cancelled'$$;
  club_board constant text := $$p.club_id = board_club_id and (p.share_within_club or p.share_globally) and p.status <> 'cancelled'$$;
begin
  execute format($function$
create or replace function challenge_board_view(
  board_challenge_id text,
  board_club_id text,
  viewer_id text,
  page_size integer,
  after_score numeric,
  after_reached_at timestamptz,
  after_id text
)
returns table (
  part text,
  id text,
  "userId" text,
  score text,
  "reachedAt" text,
  status text,
  "sharedGlobally" boolean,
  "sharedWithinClub" boolean,
  "clubId" text,
  ahead integer,
  "displayName" text
)
language plpgsql stable
-- The limits are arguments. With custom plans PostgreSQL would plan the page statement afresh on
-- every call: it prices a generic plan's unknown limit as a tenth of the board, far above any
-- custom plan, so it never settles on it. The generic plans are the board indexes' ranges.
set plan_cache_mode = force_generic_plan
-- "reachedAt" is the UTC instant as a timestamp's text, `2026-01-01 00:00:31.5` in DateStyle ISO
-- (fixed here, whatever the connection's): about three times cheaper per row than to_char in a
-- format of its own; the caller writes it as `2026-01-01T00:00:31.500000Z`.
set datestyle = 'ISO'
as $body$
#variable_conflict use_column
declare
  own_id text;
  own_user_id text;
  own_display_name text;
  own_score_text text;
  own_reached_text text;
  own_status text;
  own_shared_globally boolean;
  own_shared_within_club boolean;
  own_club_id text;
  own_score numeric;
  own_at timestamptz;
  -- Where the own score's band ends: the rank counts the higher scores of its own band one by one
  -- and the bands from there on as one count each.
  own_band_end numeric;
  -- A first page starts above every score, so that one statement per board serves every page,
  -- its index range bounded by from_score.
  from_score numeric := coalesce(after_score, 'Infinity');
  own_on_page boolean;
  own_ahead integer;
  -- Neighbours one side's ties gave: the scores beyond give the rest.
  neighbours integer;
  board_key text := case when board_club_id is null then 'global' else 'club:' || board_club_id end;
begin
  select p.id, p.user_id, p.score::text, (p.score_reached_at at time zone 'UTC')::text,
    p.status, p.share_globally, p.share_within_club, p.club_id, p.score, p.score_reached_at, p.display_name
  into own_id, own_user_id, own_score_text, own_reached_text, own_status, own_shared_globally, own_shared_within_club,
    own_club_id, own_score, own_at, own_display_name
  from challenge_participation p
  where p.challenge_id = board_challenge_id and p.user_id = viewer_id and p.status <> 'cancelled'
    and (board_club_id is null or p.club_id = board_club_id);

  if board_club_id is null then
%s
  else
%s
  end if;
end $body$
$function$, replace(board_statements, '{board}', global_board), replace(board_statements, '{board}', club_board));
end $generate$;
