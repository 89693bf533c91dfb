import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Sql } from '../../shared/db/client';
import { DEFAULT_MIGRATIONS_DIR, migrate, readLiveFiles, readMigrations } from '../../shared/db/migrate';
import { FORMER_CHECKSUMS } from '../../shared/db/migrations/formerChecksums';
import { folder, useScratchDatabases } from './scratch';
import { applyUnifiedDiff } from './unifiedDiff';

/**
 * Numbered migrations whose function, trigger and view definitions moved into live files: a
 * database migrated with their earlier texts must migrate cleanly with today's runner and files and
 * end as a new database does. The earlier texts are rebuilt from today's files and the diff back to
 * them (fixtures/formerMigrations.patch); their checksums must be the ones the runner accepts.
 */
const ROOT = path.join(__dirname, '..', '..');
const FORMER = applyUnifiedDiff(readFileSync(path.join(__dirname, 'fixtures', 'formerMigrations.patch'), 'utf8'), (file) =>
  readFileSync(path.join(ROOT, file), 'utf8'),
);
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The shipped numbered migrations with the earlier texts in place of the rewritten ones; no live files. */
async function formerFolder(): Promise<string> {
  const files: Record<string, string> = {};
  for (const file of await readMigrations(DEFAULT_MIGRATIONS_DIR)) {
    const fileName = `${file.version}_${file.name}.sql`;
    files[fileName] = FORMER.get(`shared/db/migrations/${fileName}`) ?? file.sql;
  }
  return folder(files);
}

/** Every table column, index, constraint, function and trigger of the public schema, as the catalog prints it. */
async function schemaOf(sql: Sql): Promise<string[]> {
  const rows = await sql<{ line: string }[]>`
    select kind || ' ' || name || ': ' || coalesce(definition, '') as line from (
      select 'column' as kind, table_name || '.' || column_name as name,
        concat_ws(' ', ordinal_position, data_type, is_nullable, column_default) as definition
      from information_schema.columns where table_schema = 'public'
      union all
      select 'index', indexname, indexdef from pg_indexes where schemaname = 'public'
      union all
      select 'constraint', conrelid::regclass || '.' || conname, pg_get_constraintdef(oid) from pg_constraint
      where connamespace = 'public'::regnamespace
      union all
      select 'function', p.oid::regprocedure::text, pg_get_functiondef(p.oid) from pg_proc p
      where pronamespace = 'public'::regnamespace
      union all
      select 'trigger', tgrelid::regclass || '.' || tgname, pg_get_triggerdef(oid) from pg_trigger where not tgisinternal
    ) as catalog
    order by kind, name`;
  return rows.map((row) => row.line);
}

/** A small board of every sharing choice, cancelled rows, another club's rows, and unread notifications. */
async function seed(sql: Sql, participations: 'before' | 'after'): Promise<void> {
  if (participations === 'before') {
    await sql`insert into club (id, name) values ('club-a', 'A'), ('club-b', 'B'), ('global', 'Global')`;
    await sql`
      insert into challenge (id, scope, title, difficulty, duration_days, reward_xp, rules)
      values ('board', 'global', 'Board', 'easy', 30, 10, '{}')`;
  }
  const offset = participations === 'before' ? 0 : 12;
  for (let n = offset; n < offset + 12; n += 1) {
    await sql`
      insert into challenge_participation (id, challenge_id, user_id, club_id, rules, reward_xp, deadline_at, score,
        score_reached_at, share_within_club, share_globally, status)
      values (${`p${n}`}, 'board', ${`u${n}`}, ${['club-a', 'club-b', 'global', null][n % 4] ?? null}, '{}', 10,
        '2026-12-01T00:00:00Z', ${[40, 25.5, 25.5, 259.99, 260, 9.99, -0.5][n % 7]!}, ${`2026-09-01T10:00:0${n % 3}Z`},
        ${n % 3 !== 0}, ${n % 4 < 2}, ${['active', 'completed', 'cancelled', 'active', 'failed'][n % 5]!})`;
  }
  await sql`
    insert into notification (user_id, title, kind, source, read_at)
    select 'reader-' || (n % 3), 'Hello', 'test', 'test', case when n % 2 = 0 then now() end
    from generate_series(${offset}::int, ${offset + 11}::int) as n`;
  await sql`update challenge_participation set score = score + 1 where id in ('p1', ${`p${offset + 3}`})`;
}

/** What the triggers keep and what the board view answers for each viewer, board and page size. */
async function behaviourOf(sql: Sql): Promise<unknown> {
  const views: unknown[] = [];
  for (let n = 0; n < 24; n += 1) {
    for (const club of [null, 'club-a', 'global']) {
      for (const pageSize of [1, 3]) {
        views.push(await sql`select * from challenge_board_view('board', ${club}, ${`u${n}`}, ${pageSize}, null, null, null)`);
      }
    }
  }
  return {
    scores:
      await sql`select challenge_id, board, score::text, participants from challenge_board_score where participants <> 0 order by 1, 2, 3`,
    bands:
      await sql`select challenge_id, board, band::text, participants from challenge_board_band where participants <> 0 order by 1, 2, 3`,
    unread: await sql`select user_id, unread from notification_unread_count where unread <> 0 order by 1`,
    views,
  };
}

describe('numbered migrations rewritten when their definitions moved into live files', () => {
  const databases = useScratchDatabases();

  it('lists exactly the rewritten versions, each with the checksum of its earlier text', async () => {
    const byVersion = Object.fromEntries((await readMigrations(DEFAULT_MIGRATIONS_DIR)).map((file) => [file.version, file]));
    const rebuilt = Object.fromEntries(
      [...FORMER].map(([file, text]) => [/\/(\d{3,})_[^/]+\.sql$/.exec(file)![1]!, [sha256(text)]] as const),
    );
    expect(rebuilt).toEqual(FORMER_CHECKSUMS);
    for (const [version, [former]] of Object.entries(rebuilt)) expect(byVersion[version]?.checksum).not.toBe(former);
  });

  it('migrates a database of the earlier texts cleanly, to the schema and behaviour of a new one', async () => {
    const upgraded = await databases.fresh();
    // Today's runner applies numbered files as the earlier one did; the earlier one kept no live files.
    await migrate(upgraded, await formerFolder());
    await upgraded`drop table schema_live_files`;
    await seed(upgraded, 'before');

    const result = await migrate(upgraded);
    expect(result.applied).toEqual([]);
    expect(result.liveApplied).toEqual((await readLiveFiles(DEFAULT_MIGRATIONS_DIR)).map((file) => file.name));
    await seed(upgraded, 'after');

    const created = await databases.fresh();
    await migrate(created);
    await seed(created, 'before');
    await seed(created, 'after');

    expect(await schemaOf(upgraded)).toEqual(await schemaOf(created));
    expect(await behaviourOf(upgraded)).toEqual(await behaviourOf(created));
    expect(await migrate(upgraded)).toMatchObject({ applied: [], liveApplied: [] });
  });

  it('still refuses an applied migration whose checksum is neither its own nor a listed earlier one', async () => {
    const sql = await databases.fresh();
    const dir = await formerFolder();
    writeFileSync(
      path.join(dir, '024_challenge_board_view.sql'),
      `${FORMER.get('shared/db/migrations/024_challenge_board_view.sql')}\n-- edited\n`,
    );
    await migrate(sql, dir);
    await expect(migrate(sql)).rejects.toThrow(/024_challenge_board_view was changed after it was applied/);
  });
});
