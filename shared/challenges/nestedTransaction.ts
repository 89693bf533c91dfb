import type { Sql, TransactionSql } from '../db/client';

/**
 * A view of an open transaction for code that opens its own with `sql.begin` (notify()): its
 * `begin` becomes a savepoint, so what it writes commits or rolls back with the caller's
 * transaction. A completion's notification is then written exactly when its payout is.
 */
export function withinTransaction(tx: TransactionSql): Sql {
  return new Proxy(tx, {
    get(target, property, receiver) {
      if (property === 'begin') return (callback: (inner: TransactionSql) => unknown) => target.savepoint(callback);
      return Reflect.get(target, property, receiver) as unknown;
    },
  }) as unknown as Sql;
}
