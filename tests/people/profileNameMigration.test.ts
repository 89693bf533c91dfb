import { migrate } from '../../shared/db/migrate';
import { useScratchDatabases, shippedMigrationsBefore } from '../db/scratch';

/** The migration that lets a profile have no name empties the placeholder nameless sign-ins stored, and nothing else. */

describe('making the display name optional', () => {
  const databases = useScratchDatabases();

  it('empties "Mitglied" where a sign-in put it, keeps it where the person chose it, and keeps every real name', async () => {
    const sql = await databases.fresh();
    await migrate(sql, shippedMigrationsBefore('_profile_name_optional.sql'));
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
