import type postgres from 'postgres';
import { getSettings } from '../config/settings';
import { guardPool } from './poolGuard';

/** The driver's query function; repository functions take it as their first parameter. */
export type Sql = postgres.Sql;
/** A transaction-scoped query function (what `sql.begin` hands its callback). */
export type TransactionSql = postgres.TransactionSql;
/** Either of the two: repository functions work inside or outside a transaction. */
export type Queryable = Sql | TransactionSql;

export interface ConnectOptions {
  url: string;
  max?: number;
  connectTimeoutSeconds?: number;
  /** Milliseconds a query may wait for a free connection before it fails with a BusyError (unset: no bound). */
  maxWaitMs?: number;
  /** Names the pool in that error (`user`, `bulk`). */
  name?: string;
}

/** Seconds a caller refused for want of a free connection is asked to wait. */
export const POOL_BUSY_RETRY_AFTER_SECONDS = 2;

/** Opens a lazily-connecting, bounded pool (guarded: shared/db/poolGuard.ts). */
export function connect(options: ConnectOptions): Sql {
  // Required here, not imported at the top: the first pool loads the driver (see driver.ts).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { default: postgres } = require('./driver') as typeof import('./driver');
  const max = options.max ?? 10;
  const sql = postgres(options.url, {
    max,
    idle_timeout: 30,
    connect_timeout: options.connectTimeoutSeconds ?? 10,
    onnotice: () => undefined,
    // int8 (count(*), bigserial) comes back as a JS number: every count in this service fits.
    types: { bigint: { to: 20, from: [20], serialize: (value: number) => String(value), parse: (value: string) => Number(value) } },
    transform: { undefined: null },
    connection: { application_name: 'shooting-club-backend' },
  });
  return guardPool(sql, {
    max,
    ...(options.maxWaitMs === undefined ? {} : { maxWaitMs: options.maxWaitMs }),
    retryAfterSeconds: POOL_BUSY_RETRY_AFTER_SECONDS,
    pool: options.name ?? 'database',
  });
}

let shared: Sql | undefined;
let bulk: Sql | undefined;

/** A pool of the process from the settings' database URL. */
function settingsPool(options: Omit<ConnectOptions, 'url'>): Sql {
  const url = getSettings().DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is not set');
  return connect({ url, ...options });
}

/** The pool of this process that user requests use. */
export function getSql(): Sql {
  if (!shared) {
    const settings = getSettings();
    shared = settingsPool({ max: settings.DATABASE_POOL_MAX, maxWaitMs: settings.DATABASE_POOL_WAIT_MS, name: 'user' });
  }
  return shared;
}

/**
 * The pool for bulk work (box reports): a second, small pool of DATABASE_BULK_POOL_MAX
 * connections, so bulk work can never hold the connections user requests need. With
 * DATABASE_BULK_POOL_MAX=0 bulk work shares the user pool (the behaviour without the budget).
 */
export function getBulkSql(): Sql {
  const settings = getSettings();
  if (settings.DATABASE_BULK_POOL_MAX === 0) return getSql();
  bulk ??= settingsPool({ max: settings.DATABASE_BULK_POOL_MAX, maxWaitMs: settings.DATABASE_BULK_POOL_WAIT_MS, name: 'bulk' });
  return bulk;
}

/** Closes the pools of this process (tests, scripts, dev host shutdown). */
export async function closeSql(): Promise<void> {
  const current = [shared, bulk];
  shared = undefined;
  bulk = undefined;
  await Promise.all(current.map(async (pool) => pool?.end({ timeout: 5 })));
}
