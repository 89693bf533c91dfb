-- The bands of challenge_board_band (025_challenge_board_bands.sql): the scores that agree in their
-- first two significant digits (250 to 259.99, 9.5 to 9.59, 1,200 to 1,299.99; below 1, each whole
-- number: 0 to 0.99, -1 to -0.01, ...). Plain expressions, no query: inlined where they are used.

-- The lowest score of the band `score` is in.
create or replace function challenge_board_band_of(score numeric) returns numeric
language sql immutable parallel safe as $$
  select case when score < 1 then floor(score) else trunc(score, 2 - length(trunc(score)::text)) end
$$;

-- Where the band of `score` ends: the lowest score of the next band up.
create or replace function challenge_board_band_end(score numeric) returns numeric
language sql immutable parallel safe as $$
  select case
    when score < 1 then floor(score) + 1
    else trunc(score, 2 - length(trunc(score)::text)) + power(10::numeric, length(trunc(score)::text) - 2)
  end
$$;
