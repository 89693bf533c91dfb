import type { Sql } from '../../shared/db/client';

export interface InjectedFailure {
  table: 'club_data_hit' | 'club_data_shooter';
  /** Only this club's rows fail, so files running in parallel are not disturbed. */
  club: string;
  /** The SQLSTATE raised: 40001 and 40P01 are transient, 23514 (a check) is not. */
  errcode: string;
  /** Only rows with discipline 'poison' fail, with the message "injected refusal of <record id>". */
  poisonOnly?: boolean;
  /** Updates fail too, not inserts alone. */
  updates?: boolean;
}

/**
 * Runs `run` while a trigger makes the database refuse `club`'s rows in `table` with `errcode`,
 * as a concurrent transaction or a violated check would; the trigger is gone afterwards.
 */
export async function whileDatabaseRefuses<T>(sql: Sql, failure: InjectedFailure, run: () => Promise<T>): Promise<T> {
  const { table, club, errcode, poisonOnly = false, updates = false } = failure;
  if (!/^\w+$/.test(club) || !/^\w{5}$/.test(errcode)) throw new Error('club and errcode go into DDL: word characters only');
  const fn = `refuse_${table}_${club}`;
  const raise = poisonOnly
    ? `if new.source_club_id = '${club}' and new.discipline = 'poison' then
         raise exception 'injected refusal of %', new.source_record_id using errcode = '${errcode}';
       end if;`
    : `if new.source_club_id = '${club}' then raise exception 'injected' using errcode = '${errcode}'; end if;`;
  await yieldingDdl(
    sql,
    `create function ${fn}() returns trigger language plpgsql as $$
    begin
      ${raise}
      return new;
    end $$;
    create trigger ${fn} before insert${updates ? ' or update' : ''} on ${table} for each row execute function ${fn}();`,
  );
  try {
    return await run();
  } finally {
    await yieldingDdl(sql, `drop trigger ${fn} on ${table}; drop function ${fn}();`);
  }
}

/**
 * DDL on a table the run's other files read and write at the same time, in one transaction that
 * gives up a lock it cannot have within 200 ms and tries again. A trigger on the partitioned
 * `club_data_hit` locks each partition in turn; without the bound, a reader in another file that
 * had locked some partitions before it could wait for the rest in a cycle, and the database's
 * deadlock check (after 1 s) would fail that reader's transaction instead of this one.
 */
async function yieldingDdl(sql: Sql, statements: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await sql.begin(async (tx) => {
        await tx`select set_config('lock_timeout', '200ms', true)`;
        await tx.unsafe(statements);
      });
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== '55P03' || attempt >= 100) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20 * Math.min(attempt, 10)));
    }
  }
}
