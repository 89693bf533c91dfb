import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_MIGRATIONS_DIR, migrate } from '../../shared/db/migrate';
import { folder, scratchDatabases } from '../db/scratch';

/** The migration that lets a profile have no name empties the placeholder nameless sign-ins stored, and nothing else. */

/**
 * The shipped migrations before the name became optional. Without today's live files: they are
 * written for today's schema (a participation's copied name, say), which that state does not have yet.
 */
function migrationsBeforeOptionalName(): string {
  const optional = readdirSync(DEFAULT_MIGRATIONS_DIR).find((name) => name.endsWith('_profile_name_optional.sql')) ?? '';
  const files: Record<string, string> = {};
  for (const name of readdirSync(DEFAULT_MIGRATIONS_DIR)) {
    if (/^\d{3}_.*\.sql$/.test(name) && name < optional) files[name] = readFileSync(path.join(DEFAULT_MIGRATIONS_DIR, name), 'utf8');
  }
  return folder(files);
}

describe('making the display name optional', () => {
  const databases = scratchDatabases();
  afterAll(() => databases.dropAll(), 120_000);

  it('empties "Mitglied" where a sign-in put it, keeps it where the person chose it, and keeps every real name', async () => {
    const sql = await databases.fresh();
    await migrate(sql, migrationsBeforeOptionalName());
    await sql`
      insert into person_profile (user_id, display_name, name_from_sign_in) values
        ('nameless', 'Mitglied', true), ('chose-it', 'Mitglied', false), ('anna', 'Anna Schütz', true)`;

    await migrate(sql);

    const rows = await sql<{ userId: string; displayName: string | null }[]>`
      select user_id as "userId", display_name as "displayName" from person_profile order by user_id`;
    expect(rows).toEqual([
      { userId: 'anna', displayName: 'Anna Schütz' },
      { userId: 'chose-it', displayName: 'Mitglied' },
      { userId: 'nameless', displayName: null },
    ]);
  });
});
