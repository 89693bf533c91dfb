import { connect, getSql, type Sql } from '../../shared/db/client';
import { getSettings } from '../../shared/config/settings';

/**
 * Health folds every runner row into one block, so test files that write ingest status take
 * turns: each holds this advisory lock (on a connection of its own, outside the shared pool)
 * for its whole run and starts each test from empty status tables.
 */
const INGEST_TABLES_LOCK = 8_311_042;

export function useIngestTablesExclusively(): void {
  let holder: Sql | undefined;
  beforeAll(async () => {
    holder = connect({ url: getSettings().DATABASE_URL ?? '', max: 1 });
    await holder`select pg_advisory_lock(${INGEST_TABLES_LOCK})`;
  }, 120_000);
  beforeEach(async () => {
    await getSql()`delete from ingest_runner_status`;
    await getSql()`delete from ingest_contract_reject`;
    await getSql()`delete from ingest_admission`;
    await getSql()`delete from ingest_dead_letter`;
  });
  afterAll(async () => {
    // Ending the session releases the lock.
    await holder?.end({ timeout: 5 });
  });
}
