import { getSql } from '../../shared/db/client';
import { useAdvisoryTurn } from '../support/advisoryTurn';

/**
 * Health folds every runner row into one block, so test files that write ingest status take
 * turns and start each test from empty status tables.
 */
const INGEST_TABLES_LOCK = 8_311_042;

export function useIngestTablesExclusively(): void {
  useIngestTablesInTurn();
  beforeEach(async () => {
    await getSql()`delete from ingest_runner_status`;
    await getSql()`delete from ingest_contract_reject`;
    await getSql()`delete from ingest_admission`;
    await getSql()`delete from ingest_dead_letter`;
  });
}

/**
 * Only the turn, for files whose runners (a worker, a function host) write ingest status while
 * they run: their rows would otherwise change another file's reading of health or a quarantine.
 */
export function useIngestTablesInTurn(): void {
  useAdvisoryTurn(INGEST_TABLES_LOCK);
}
