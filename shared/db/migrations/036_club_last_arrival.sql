-- The newest cloud arrival (club_data_hit.created_at) per source club, for the freshness check
-- (shared/freshness/freshnessRepository.ts, docs/freshness.md "One query for all clubs"). Read from
-- the partitioned hits, a club's newest arrival probes every partition's index (the default
-- partition rules out an ordered Append), so the check over 14,000 clubs took 3-4.5 s
-- (docs/benchmarks.md, "Federation run"); from this table it is one key lookup per club.
-- A derived copy: the apply statement (shared/ingest/apply.ts, CTE hit_arrival) is its only
-- writer, in the statement that inserts the hits, and moves a row only forward (greatest).
-- Keyed by the source club, like the rest of the hit path (tests/db/citusReadiness.test.ts).
create table club_last_arrival (
  source_club_id text primary key,
  last_arrival_at timestamptz not null
);

-- Filled once from the hits already there: per club number of the club table, one descent of the
-- (source_club_id, created_at desc) index per partition, not a scan of the hits. Hits of club
-- numbers no club carries yet get their row with their club's next batch.
insert into club_last_arrival (source_club_id, last_arrival_at)
select numbers.vereins_id, newest.created_at
from (select vereins_id from club where vereins_id is not null) as numbers
cross join lateral (
  select h.created_at from club_data_hit h
  where h.source_club_id = numbers.vereins_id
  order by h.created_at desc
  limit 1
) as newest;
