import type { Sql, TransactionSql } from '../../shared/db/client';

/**
 * A long reader (a report, a backup) holding the locks of what it read: `read` runs in a
 * transaction on `sql` that stays open, its locks held, until `release()`, which ends the
 * transaction and closes `sql`. Answers once the read is done and the locks are held.
 */
export async function holdReading(sql: Sql, read: (tx: TransactionSql) => Promise<unknown>): Promise<{ release(): Promise<void> }> {
  let finishReading!: () => void;
  const readingDone = new Promise<void>((resolve) => (finishReading = resolve));
  let readerHoldsLock!: () => void;
  const lockHeld = new Promise<void>((resolve) => (readerHoldsLock = resolve));
  const reading = sql.begin(async (tx) => {
    await read(tx);
    readerHoldsLock();
    await readingDone;
  });
  // A read that fails rejects here instead of leaving the caller waiting for a lock never held.
  await Promise.race([lockHeld, reading]);
  return {
    async release() {
      finishReading();
      await reading;
      await sql.end();
    },
  };
}
