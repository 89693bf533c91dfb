import type postgres from 'postgres';
import { BusyError } from '../errors/domainErrors';

/** Stable code of the 503 a caller gets when every connection of a pool stayed busy too long. */
export const POOL_BUSY_CODE = 'pool_busy';

export interface PoolWaitOptions {
  /** Milliseconds a query may wait for a free connection before it is refused. */
  maxWaitMs: number;
  /** Seconds the refused caller is asked to wait (Retry-After). */
  retryAfterSeconds: number;
  /** Names the pool in the error message (`user`, `bulk`). */
  pool: string;
}

/** The parts of a postgres.js query this module touches (the driver's Query is a Promise subclass). */
interface PendingQuery extends Promise<unknown> {
  handler: (query: PendingQuery) => void;
  state: unknown;
  cancelled: unknown;
  reject: (error: unknown) => void;
  cancel(): unknown;
}

function isPendingQuery(value: unknown): value is PendingQuery {
  return value instanceof Promise && typeof (value as Partial<PendingQuery>).handler === 'function' && 'state' in value;
}

/**
 * Bounds how long a query waits for a pool connection. postgres.js queues a query without limit
 * while every connection is held (transactions, reserved connections); here a query still queued
 * after `maxWaitMs` is taken out of the queue (the driver's own cancel: it is never sent) and
 * fails with a BusyError, which the HTTP dispatcher answers 503 with Retry-After. A query already
 * sent to the server is never touched: its duration is the server's statement_timeout's concern.
 *
 * Covers tagged queries on the pool, `sql.unsafe`, and `sql.begin` (which starts with an unsafe
 * `begin`); queries inside a transaction run on its own connection and never wait for the pool.
 */
export function withPoolWait(sql: postgres.Sql, { maxWaitMs, retryAfterSeconds, pool }: PoolWaitOptions): postgres.Sql {
  const watch = <T>(query: T): T => {
    if (!isPendingQuery(query)) return query;
    const handler = query.handler;
    query.handler = (pending) => {
      handler(pending);
      // Executed at once (a free or connecting connection took it): nothing to watch.
      if (pending.state !== null || pending.cancelled) return;
      const timer = setTimeout(() => {
        if (pending.state !== null || pending.cancelled) return;
        const reject = pending.reject;
        pending.reject = () =>
          reject(
            new BusyError(`Every ${pool} database connection is busy; try again shortly.`, retryAfterSeconds, {
              code: POOL_BUSY_CODE,
            }),
          );
        pending.cancel();
      }, maxWaitMs);
      timer.unref();
      const clear = () => clearTimeout(timer);
      // The driver's Query.then() only attaches here; it was executed above.
      void Promise.prototype.then.call(pending, clear, clear);
    };
    return query;
  };

  const unsafe = sql.unsafe.bind(sql);
  // `begin` calls this property of the same object, so transactions are covered too.
  (sql as { unsafe: unknown }).unsafe = (...args: Parameters<typeof unsafe>) => watch(unsafe(...args));

  return new Proxy(sql, {
    apply(target, thisArg, args) {
      return watch(Reflect.apply(target, thisArg, args) as unknown);
    },
  });
}
