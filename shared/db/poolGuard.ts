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
 * A statement takes its slot when it is awaited (admitStatement), a fragment never; statements
 * inside a transaction run on its connection and pass untouched. Each admitted statement and
 * transaction gets a span while telemetry is on (shared/db/querySpan.ts).
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

  // A plain function that hands the query and the call site's template strings on (the span's
  // text; constant per call site), with the pool as its prototype for the driver's helpers (`json`, `array`, `end`, `options`):
  // while each query's arguments went on to a second call (through a Proxy, or the template
  // strings handed to the hook), about three times as much survived each young-generation
  // collection under load, which doubled its pauses and set the request path's p99
  // (docs/benchmarks.md, "The pool guard and the young generation").
  function guarded(this: unknown, ...args: unknown[]): unknown {
    return admitted(Reflect.apply(sql, this, args) as unknown, args[0]);
  }
  Object.setPrototypeOf(guarded, sql);
  return Object.assign(guarded, {
    unsafe: (...args: Parameters<typeof unsafe>) => admitted(unsafe(...args), undefined),
    begin: guardedBegin,
  }) as unknown as postgres.Sql;
}

/**
 * The one point where a statement of the pool is held until it has a slot. postgres.js documents
 * its statements as lazy Promises, first executed when awaited (their `then`, `catch` or `finally`)
 * or by `.execute()`; a statement nested in another as a fragment is never awaited, and must stay
 * an instance of the driver's class. So each statement of the pool gets, as its prototype, one
 * object per pool whose own prototype is the driver's: its `then`, `catch` and `finally` take a
 * slot on the first await, then run the statement through the driver's own `then`, and release
 * the slot when it settles; a statement awaited again is not run again, a fragment never takes a
 * slot. `.execute()`, `.cursor()` and `.forEach()` start a statement at once, past the slots; this
 * service uses none of them on a pool.
 *
 * Why a prototype and not the three methods set on each statement: a `then` set on a Promise
 * instance turns off V8's fast path for every Promise of the process (its Promise#then protector),
 * and the prototype costs a statement one prototype change instead of three properties.
 */
function admitStatement(slots: Slots, busy: () => BusyError, pool: string): (value: unknown, strings: unknown) => unknown {
  let admittedStatement: object | undefined;
  let driverStatement: Promise<unknown>;

  function settle(statement: Admitted): Promise<unknown> {
    return new Promise((resolve, reject) =>
      slots.take(
        () => {
          const span = startQuerySpan(statement[CALL_SITE], pool);
          // The driver's own `then`, which runs the statement; both outcomes are handled here.
          void driverStatement.then.call(
            statement,
            (rows) => {
              slots.release();
              span?.end();
              resolve(rows);
            },
            (error: unknown) => {
              slots.release();
              span?.end(error);
              // The driver's error as it is (a PostgresError, or what the driver rejected with).
              // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
              reject(error);
            },
          );
        },
        () => reject(busy()),
      ),
    );
  }
  const awaited = {
    then(this: Admitted, onFulfilled?: Settle, onRejected?: Settle) {
      return (this[SETTLED] ??= settle(this)).then(onFulfilled, onRejected);
    },
    catch(this: Admitted, onRejected?: Settle) {
      return (this[SETTLED] ??= settle(this)).catch(onRejected);
    },
    finally(this: Admitted, onFinally?: () => void) {
      return (this[SETTLED] ??= settle(this)).finally(onFinally);
    },
  };

  return (value, strings) => {
    if (!(value instanceof Promise)) return value;
    if (!admittedStatement) {
      // Made from the first statement: the driver's statement class is not exported.
      driverStatement = Object.getPrototypeOf(value) as Promise<unknown>;
      admittedStatement = Object.assign(Object.create(driverStatement) as object, awaited);
    }
    Object.setPrototypeOf(value, admittedStatement);
    (value as Admitted)[CALL_SITE] = strings;
    return value;
  };
}

type Settle = ((value: unknown) => unknown) | null;

/** The call site's template strings of a statement (the span's text), and its run once awaited. */
const CALL_SITE = Symbol('callSite');
const SETTLED = Symbol('settled');

/** A statement of the driver, a Promise run when awaited (as the driver documents it), with what the guard keeps on it. */
interface Admitted extends Promise<unknown> {
  [CALL_SITE]?: unknown;
  [SETTLED]?: Promise<unknown>;
}
