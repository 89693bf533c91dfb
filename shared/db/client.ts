import postgres from 'postgres';
import { getSettings } from '../config/settings';

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
}

/** Opens a lazily-connecting, bounded pool. */
export function connect(options: ConnectOptions): Sql {
  return postgres(options.url, {
    max: options.max ?? 10,
    idle_timeout: 30,
    connect_timeout: options.connectTimeoutSeconds ?? 10,
    onnotice: () => undefined,
    // int8 (count(*), bigserial) comes back as a JS number: every count in this service fits.
    types: { bigint: { to: 20, from: [20], serialize: (value: number) => String(value), parse: (value: string) => Number(value) } },
    transform: { undefined: null },
    connection: { application_name: 'shooting-club-backend' },
  });
}

let shared: Sql | undefined;

/** The one pool of this process. */
export function getSql(): Sql {
  if (!shared) {
    const settings = getSettings();
    if (!settings.DATABASE_URL) throw new Error('DATABASE_URL is not set');
    shared = connect({ url: settings.DATABASE_URL, max: settings.DATABASE_POOL_MAX });
  }
  return shared;
}

/** Closes the pool of this process (tests, scripts, dev host shutdown). */
export async function closeSql(): Promise<void> {
  const current = shared;
  shared = undefined;
  await current?.end({ timeout: 5 });
}
