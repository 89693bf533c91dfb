import type postgres from 'postgres';
import { BusyError } from '../errors/domainErrors';
import { startQuerySpan, startTransactionSpan } from './querySpan';

/** Stable code of the 503 a caller gets when every connection of a pool stayed busy too long. */
export const POOL_BUSY_CODE = 'pool_busy';

export interface PoolGuardOptions {
  /** Connections of the pool: at most this many queries and transactions hold one at a time. */
  max: number;
  /** Milliseconds a query or transaction may wait for a connection before it is refused; unset: no bound. */
  maxWaitMs?: number;
  /** Seconds the refused caller is asked to wait (Retry-After). */
  retryAfterSeconds: number;
  /** Names the pool in the error message (`user`, `bulk`). */
  pool: string;
}

/** The parts of a postgres.js query this module touches (the driver's Query is a Promise subclass). */
interface PendingQuery extends Promise<unknown> {
  handler: (query: PendingQuery) => void;
  /** The call site's template strings (a tagged query), or the text in an array (sql.unsafe). */
  strings?: unknown;
  reject: (error: unknown) => void;
}

function isPendingQuery(value: unknown): value is PendingQuery {
  return value instanceof Promise && typeof (value as Partial<PendingQuery>).handler === 'function';
}

/** Runs callbacks on the settled query without the driver's own then() (that would run it again). */
function whenSettled(query: PendingQuery, onSuccess: () => void, onFailure: (error: unknown) => void): void {
  void Promise.prototype.then.call(query, onSuccess, onFailure);
}

interface Waiter {
  grant(): void;
  gone: boolean;
}

/**
 * Two guards in front of a postgres.js pool:
 *
 * - Admission with a bounded wait. postgres.js queues a query without limit while every
 *   connection is held (transactions). Here every query on the pool and every transaction
 *   (`sql.begin`, for its whole run) first takes one of `max` slots; a caller that finds none
 *   waits in this guard's queue, where nothing has been sent yet, and after `maxWaitMs` fails with
 *   a BusyError, which the HTTP dispatcher answers 503 with Retry-After (jobs retry it). The
 *   driver therefore always has a connection (open, or opening) for what it is handed. Queries
 *   inside a transaction run on its connection and pass untouched.
 * - A warm-up gate. The driver learns the array types (`text[]` for `text`) from the server when
 *   its first connection opens, but executes that connection's first query in the same step that
 *   completes the type query, before it has stored the types: an array parameter in that query
 *   goes out as `a,b,c` and the server refuses it with 22P02 `malformed array literal` (the first
 *   query of a fresh pool failed in most of 40 tries; reported upstream as porsager/postgres#789,
 *   still open). So the pool's first query is a probe without
 *   parameters (`select 1`) and the others wait for it (within their wait). A failed probe releases
 *   them to fail on their own; the next query probes again. The types are shared by every
 *   connection of the pool, so later connections are not affected.
 */
export function guardPool(sql: postgres.Sql, { max, maxWaitMs, retryAfterSeconds, pool }: PoolGuardOptions): postgres.Sql {
  const busy = () =>
    new BusyError(`Every ${pool} database connection is busy; try again shortly.`, retryAfterSeconds, { code: POOL_BUSY_CODE });

  let warm = false;
  let warming: Promise<void> | undefined;
  function afterWarmUp(next: () => void): void {
    if (warm) return next();
    warming ??= Promise.resolve(sql`select 1`).then(
      () => {
        warm = true;
      },
      () => {
        warming = undefined;
      },
    );
    void warming.then(next);
  }

  let free = max;
  const waiters: Waiter[] = [];
  function release(): void {
    for (;;) {
      const next = waiters.shift();
      if (!next) {
        free += 1;
        return;
      }
      if (!next.gone) return next.grant();
    }
  }

  /**
   * Calls `start` once a slot is held (the caller releases it), or `refuse` after the wait.
   * Exactly one of the two runs.
   */
  function admit(start: () => void, refuse: () => void): void {
    // The common case under load: a free slot after warm-up needs no wait timer and no waiter.
    if (warm && free > 0) {
      free -= 1;
      return start();
    }
    let decided = false;
    let waiter: Waiter | undefined;
    const timer =
      maxWaitMs === undefined
        ? undefined
        : setTimeout(() => {
            if (decided) return;
            decided = true;
            if (waiter) waiter.gone = true;
            refuse();
          }, maxWaitMs);
    timer?.unref();
    const grant = () => {
      if (decided) return release();
      decided = true;
      clearTimeout(timer);
      start();
    };
    afterWarmUp(() => {
      if (decided) return;
      if (free > 0) {
        free -= 1;
        return grant();
      }
      waiter = { grant, gone: false };
      waiters.push(waiter);
    });
  }

  const watch = (query: unknown): unknown => {
    if (!isPendingQuery(query)) return query;
    const handler = query.handler;
    query.handler = (pending) =>
      admit(
        () => {
          // A span per statement when telemetry is on (shared/db/querySpan.ts).
          const span = startQuerySpan(pending, pool);
          whenSettled(
            pending,
            () => {
              release();
              span?.end();
            },
            (error) => {
              release();
              span?.end(error);
            },
          );
          handler(pending);
        },
        () => pending.reject(busy()),
      );
    return query;
  };

  const unsafe = sql.unsafe.bind(sql);
  const guardedUnsafe = (...args: Parameters<typeof unsafe>) => watch(unsafe(...args));

  const begin = sql.begin.bind(sql) as (...args: unknown[]) => Promise<unknown>;
  const guardedBegin = async (...args: unknown[]) => {
    await new Promise<void>((resolve, reject) => admit(resolve, () => reject(busy())));
    const span = startTransactionSpan(pool);
    try {
      // The driver's own `begin` statement goes through its unguarded pool and so runs under
      // this slot; the guarded function below never hands it to `watch`.
      const result = await begin(...args);
      span?.end();
      return result;
    } catch (error) {
      span?.end(error);
      throw error;
    } finally {
      release();
    }
  };

  // A plain function carrying the pool's own properties, not a Proxy of the pool, and `watch`
  // takes the query alone (the span reads the call site's strings from it): while each query's
  // arguments went on to a second call (through a Proxy, or the template strings passed to
  // `watch`), about three times as much survived each young-generation collection under load
  // (9.4 against 2.9 MB), which doubled its pauses (15 against 7 ms) and set the request path's
  // p99 (docs/benchmarks.md, "The pool guard and the young generation").
  function guarded(this: unknown, ...args: unknown[]): unknown {
    return watch(Reflect.apply(sql, this, args) as unknown);
  }
  const { length: _length, name: _name, prototype: _prototype, ...properties } = Object.getOwnPropertyDescriptors(sql);
  Object.defineProperties(guarded, properties);
  Object.defineProperties(guarded, {
    unsafe: { value: guardedUnsafe, writable: true, enumerable: true, configurable: true },
    begin: { value: guardedBegin, writable: true, enumerable: true, configurable: true },
  });
  return guarded as unknown as postgres.Sql;
}
