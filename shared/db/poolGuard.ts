import type postgres from 'postgres';
import { BusyError } from '../errors/domainErrors';

/** Stable code of the 503 a caller gets when every connection of a pool stayed busy too long. */
export const POOL_BUSY_CODE = 'pool_busy';

export interface PoolWaitOptions {
  /** Milliseconds a query may wait for a free connection before it is refused; unset: no bound. */
  maxWaitMs?: number;
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

/** Runs callbacks on the settled query without the driver's own then() (that would run it again). */
function whenSettled(query: PendingQuery, onSuccess: () => void, onFailure: () => void): void {
  void Promise.prototype.then.call(query, onSuccess, onFailure);
}

/**
 * Two guards over a postgres.js pool, on every query that asks the pool for a connection (tagged
 * queries, `sql.unsafe`, and `sql.begin`, which starts with an unsafe `begin`; queries inside a
 * transaction run on its own connection and pass untouched):
 *
 * - A bounded wait. postgres.js queues a query without limit while every connection is held
 *   (transactions). A query still queued after `maxWaitMs` is taken out of the queue with the
 *   driver's own cancel (it is never sent) and fails with a BusyError, which the HTTP dispatcher
 *   answers 503 with Retry-After. A query already sent is never touched: its duration is the
 *   server's concern (statement_timeout, lock_timeout).
 * - A warm-up gate. The driver learns the array types (`text[]` for `text`) from the server when
 *   its first connection opens, but builds that connection's first query before it has stored
 *   them: an array parameter in that query goes out as `a,b,c` and the server refuses it with
 *   22P02 `malformed array literal` (the first query of a fresh pool failed in most of 40 tries).
 *   So the pool's first query is a probe without parameters (`select 1`); the others wait for it.
 *   The types are shared by every connection of the pool, so later connections are not affected.
 */
export function guardPool(sql: postgres.Sql, { maxWaitMs, retryAfterSeconds, pool }: PoolWaitOptions): postgres.Sql {
  const busy = () =>
    new BusyError(`Every ${pool} database connection is busy; try again shortly.`, retryAfterSeconds, { code: POOL_BUSY_CODE });

  let warm = false;
  let warming: Promise<void> | undefined;

  /**
   * Lets a query through the warm-up gate: at once once the pool is warm, else after a probe
   * without array parameters has succeeded. A failed probe releases the waiting queries (they
   * meet the same failure themselves); the next query starts a new probe.
   */
  function admit(go: () => void): { stillHeld(): boolean; drop(): void } {
    if (warm) {
      go();
      return { stillHeld: () => false, drop: () => undefined };
    }
    warming ??= Promise.resolve(sql`select 1`).then(
      () => {
        warm = true;
      },
      () => {
        warming = undefined;
      },
    );
    let held = true;
    void warming.then(() => {
      if (!held) return;
      held = false;
      go();
    });
    return {
      stillHeld: () => held,
      drop: () => void (held = false),
    };
  }

  const watch = <T>(query: T): T => {
    if (!isPendingQuery(query)) return query;
    const handler = query.handler;
    query.handler = (pending) => {
      const gate = admit(() => handler(pending));
      if (maxWaitMs === undefined) return;
      // Handed to a connection at once (a free or connecting one took it): nothing to watch.
      if (!gate.stillHeld() && (pending.state !== null || pending.cancelled)) return;
      const timer = setTimeout(() => {
        if (gate.stillHeld()) {
          gate.drop();
          return pending.reject(busy());
        }
        if (pending.state !== null || pending.cancelled) return;
        const reject = pending.reject;
        pending.reject = () => reject(busy());
        pending.cancel();
      }, maxWaitMs);
      timer.unref();
      const clear = () => clearTimeout(timer);
      whenSettled(pending, clear, clear);
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
