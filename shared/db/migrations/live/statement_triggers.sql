-- The triggers that keep something derived from `target` (counts, copied names) in step with it per
-- statement: insert, update and delete run `apply` with their transition tables (`added`, `removed`);
-- truncate, which fires no transition-table trigger, runs the statement `on_truncate`, which resets
-- what is derived. Declared once, so every such table gets all four and the update trigger sees both
-- tables. Named `<prefix>_insert`, `<prefix>_update`, `<prefix>_delete` and `<prefix>_truncate` (the
-- truncate trigger's function too).
create or replace procedure create_statement_triggers(target regclass, prefix text, apply regproc, on_truncate text)
language plpgsql as $$
begin
  execute format('create or replace trigger %I after insert on %s referencing new table as added'
    ' for each statement execute function %s()', prefix || '_insert', target, apply);
  execute format('create or replace trigger %I after update on %s referencing old table as removed new table as added'
    ' for each statement execute function %s()', prefix || '_update', target, apply);
  execute format('create or replace trigger %I after delete on %s referencing old table as removed'
    ' for each statement execute function %s()', prefix || '_delete', target, apply);
  execute format('create or replace function %I() returns trigger language plpgsql as %L',
    prefix || '_truncate', format('begin %s; return null; end', on_truncate));
  execute format('create or replace trigger %I after truncate on %s for each statement execute function %I()',
    prefix || '_truncate', target, prefix || '_truncate');
end $$;
