import type postgres from 'postgres';
import { BusyError } from '../errors/domainErrors';
import { startQuerySpan, startTransactionSpan } from './querySpan';
import { createSlots, type Slots } from './slots';
import { warmUpGate } from './warmUp';

/** Stable code of the 503 a caller gets when every connection of a pool stayed busy too long. */
export const POOL_BUSY_CODE = 'pool_busy';

export interface PoolGuardOptions {
  /** Connections of the pool: at most this many statements and transactions hold one at a time. */
  max: number;
  /** Milliseconds a statement or transaction may wait for a connection before it is refused; unset: no bound. */
  maxWaitMs?: number;
  /** Seconds the refused caller is asked to wait (Retry-After). */
  retryAfterSeconds: number;
  /** Names the pool in the error message and the spans (`user`, `bulk`). */
  pool: string;
}

/**
 * A postgres.js pool behind admission (docs/decisions/013-pool-admission.md). postgres.js queues a
 * statement without limit while every connection is held; here every statement on the pool and
 * every transaction (`sql.begin`, for its whole run) first takes one of `max` slots (shared/db/slots.ts,
 * behind the warm-up gate of shared/db/warmUp.ts), and a caller still waiting after `maxWaitMs`
 * fails with a BusyError, which the HTTP dispatcher answers 503 with Retry-After (jobs retry it).
 * Statements inside a transaction run on its connection and pass untouched. Each admitted
 * statement and transaction gets a span while telemetry is on (shared/db/querySpan.ts).
 */
export function guardPool(sql: postgres.Sql, { max, maxWaitMs, retryAfterSeconds, pool }: PoolGuardOptions): postgres.Sql {
  const busy = () =>
    new BusyError(`Every ${pool} database connection is busy; try again shortly.`, retryAfterSeconds, { code: POOL_BUSY_CODE });
  const slots = createSlots(
    { max, ...(maxWaitMs === undefined ? {} : { maxWaitMs }) },
    warmUpGate(() => sql`select 1`),
  );
  const admitted = admitStatement(slots, busy, pool);

  const unsafe = sql.unsafe.bind(sql);
  const begin = sql.begin.bind(sql) as (...args: unknown[]) => Promise<unknown>;
  const guardedBegin = async (...args: unknown[]) => {
    await new Promise<void>((resolve, reject) => slots.take(resolve, () => reject(busy())));
    const span = startTransactionSpan(pool);
    try {
      // The driver's own `begin` statement does not pass through `admitted`: it runs under this slot.
      const result = await begin(...args);
      span?.end();
      return result;
    } catch (error) {
      span?.end(error);
      throw error;
    } finally {
      slots.release();
    }
  };

  // A plain function that hands the query alone on (the span reads the call site's strings from
  // it), with the pool as its prototype for the driver's helpers (`json`, `array`, `end`, `options`):
  // while each query's arguments went on to a second call (through a Proxy, or the template
  // strings handed to the hook), about three times as much survived each young-generation
  // collection under load, which doubled its pauses and set the request path's p99
  // (docs/benchmarks.md, "The pool guard and the young generation").
  function guarded(this: unknown, ...args: unknown[]): unknown {
    return admitted(Reflect.apply(sql, this, args) as unknown);
  }
  Object.setPrototypeOf(guarded, sql);
  return Object.assign(guarded, {
    unsafe: (...args: Parameters<typeof unsafe>) => admitted(unsafe(...args)),
    begin: guardedBegin,
  }) as unknown as postgres.Sql;
}

/**
 * The one point where a statement of the pool is held until it has a slot. postgres.js sends a
 * statement when it is awaited, through the handler it was made with; no option of the driver runs
 * before that, and a statement must stay the driver's own object, or it would no longer nest in
 * another as a fragment. So the statement's handler is wrapped: it runs once a slot is held, and
 * the slot is released when the statement settles.
 */
function admitStatement(slots: Slots, busy: () => BusyError, pool: string): (value: unknown) => unknown {
  return (value) => {
    if (!isPendingQuery(value)) return value;
    const send = value.handler;
    value.handler = (query) =>
      slots.take(
        () => {
          const span = startQuerySpan(query, pool);
          // The driver runs a statement once: awaiting it here only listens for its end.
          void query.then(
            () => {
              slots.release();
              span?.end();
            },
            (error: unknown) => {
              slots.release();
              span?.end(error);
            },
          );
          send(query);
        },
        () => query.reject(busy()),
      );
    return value;
  };
}

/** The parts of a postgres.js statement the hook touches (the driver's Query is a Promise subclass). */
interface PendingQuery extends Promise<unknown> {
  handler: (query: PendingQuery) => void;
  /** The call site's template strings (a tagged statement), or the text in an array (sql.unsafe). */
  strings?: unknown;
  reject: (error: unknown) => void;
}

function isPendingQuery(value: unknown): value is PendingQuery {
  return value instanceof Promise && typeof (value as Partial<PendingQuery>).handler === 'function';
}
