import { closeSql, getSql } from '../shared/db/client';
import { migrate } from '../shared/db/migrate';
import { prepareLocalEnvironment } from './local/environment';

/** `npm run migrate`: applies pending migrations to DATABASE_URL, else the embedded database. */
async function main(): Promise<void> {
  const environment = await prepareLocalEnvironment({ storage: false });
  try {
    const result = await migrate(getSql());
    console.log(
      `${environment.database.description}: applied ${result.applied.length} migration(s)` +
        (result.applied.length ? ` (${result.applied.join(', ')})` : '') +
        `, ${result.alreadyApplied} already applied`,
    );
  } finally {
    await closeSql();
    await environment.release();
  }
}

main().catch((error: unknown) => {
  console.error(`Migration failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
