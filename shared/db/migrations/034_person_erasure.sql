-- A person's erasure (shared/people/erasure.ts) keeps a club's training plan but forgets who last
-- changed it: the column may be empty from now on.
alter table club_training_plan alter column updated_by drop not null;
