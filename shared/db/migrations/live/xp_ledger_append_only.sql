-- xp_ledger is append-only: every XP payout stays, once per (user, source). The one exception is a
-- person's erasure (shared/people/erasure.ts): the transaction that names them in the setting
-- `people.erasing` may delete their rows, and only theirs.
create or replace function xp_ledger_append_only() returns trigger
language plpgsql as $$
begin
  if tg_op = 'DELETE' and old.user_id = current_setting('people.erasing', true) then
    return old;
  end if;
  raise exception 'xp_ledger is append-only' using errcode = 'P0001';
end $$;
create or replace trigger xp_ledger_no_update before update or delete on xp_ledger
  for each row execute function xp_ledger_append_only();
create or replace trigger xp_ledger_no_truncate before truncate on xp_ledger
  for each statement execute function xp_ledger_append_only();
