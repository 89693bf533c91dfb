-- xp_ledger is append-only: every XP payout stays, once per (user, source).
create or replace function xp_ledger_append_only() returns trigger
language plpgsql as $$
begin
  raise exception 'xp_ledger is append-only' using errcode = 'P0001';
end $$;
create or replace trigger xp_ledger_no_update before update or delete on xp_ledger
  for each row execute function xp_ledger_append_only();
create or replace trigger xp_ledger_no_truncate before truncate on xp_ledger
  for each statement execute function xp_ledger_append_only();
