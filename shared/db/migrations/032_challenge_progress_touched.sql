-- Shooters whose hits an ingest batch just wrote, waiting for their participations to be
-- evaluated (shared/challenges/progressAfterIngest.ts, docs/challenges.md "Progress"). The apply
-- statement adds them in the same transaction as the hits, so a batch counts once however often
-- it is delivered; the ingest invocation drains a bounded number right after its checkpointed
-- apply, and the 15-minute sweep stays as the catch-up. One row per shooter however many of their
-- hits arrive before the drain; touched_at is the first, so the longest waiting go first.
create table challenge_progress_touched (
  source_club_id text not null,
  shooter_id text not null,
  touched_at timestamptz not null default now(),
  primary key (source_club_id, shooter_id)
);
create index challenge_progress_touched_at_idx on challenge_progress_touched (touched_at);
