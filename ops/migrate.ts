import { migrate } from '../shared/db/migrate';
import type { CommandRun } from './command';
import { openCommandDatabase } from './database';

/** `migrate`: applies the pending migrations to DATABASE_URL (docs/operations.md). Exit 0 done, 1 failed. */
export const runMigrate: CommandRun = async (_args, env) => {
  const database = openCommandDatabase(env);
  try {
    const result = await migrate(database.sql);
    console.log(
      `${database.description}: applied ${result.applied.length} migration(s)` +
        (result.applied.length ? ` (${result.applied.join(', ')})` : '') +
        `, ${result.alreadyApplied} already applied` +
        (result.liveApplied.length ? `; re-applied live file(s) ${result.liveApplied.join(', ')}` : ''),
    );
    return 0;
  } catch (error) {
    console.error(`Migration failed: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  } finally {
    await database.close();
  }
};
