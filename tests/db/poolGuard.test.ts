import { getSettings } from '../../shared/config/settings';
import { connect, type Sql } from '../../shared/db/client';
import { POOL_BUSY_CODE } from '../../shared/db/poolGuard';
import { BusyError } from '../../shared/errors/domainErrors';

/**
 * What a caller of the guarded pool notices (shared/db/poolGuard.ts): tagged queries, `unsafe` and
 * `begin` are refused with pool_busy while every connection is held and run once one is free,
 * however the statement is awaited; a statement runs once and a fragment takes no connection; and
 * the driver's helpers and settings work on it as on the driver's own pool.
 */
describe('the guarded pool', () => {
  let sql: Sql;
  beforeEach(() => {
    sql = connect({ url: getSettings().DATABASE_URL ?? '', max: 1, maxWaitMs: 200, name: 'guarded' });
  });
  afterEach(async () => {
    await sql.end({ timeout: 5 });
  });

  /** Holds the pool's one connection in a transaction until the returned function is called. */
  async function holdTheConnection(): Promise<() => Promise<void>> {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let began!: () => void;
    const started = new Promise<void>((resolve) => (began = resolve));
    const holder = sql.begin(async (tx) => {
      await tx`select 1`;
      began();
      await released;
    });
    await started;
    return async () => {
      release();
      await holder;
    };
  }

  async function refusal(query: Promise<unknown>): Promise<unknown> {
    return query.then(
      () => 'answered',
      (error: unknown) => error,
    );
  }

  it('refuses a tagged query, an unsafe statement and a transaction with pool_busy while its connection is held, and runs them once it is free', async () => {
    const release = await holdTheConnection();
    let refused: unknown[];
    try {
      refused = await Promise.all([refusal(sql`select 1`), refusal(sql.unsafe('select 1')), refusal(sql.begin((tx) => tx`select 1`))]);
    } finally {
      await release();
    }
    for (const error of refused) {
      expect(error).toBeInstanceOf(BusyError);
      expect(error).toMatchObject({ code: POOL_BUSY_CODE, retryAfterSeconds: 2 });
      expect((error as Error).message).toContain('guarded');
    }

    expect(await sql`select 1 as one`).toEqual([{ one: 1 }]);
    expect(await sql.unsafe('select 2 as two')).toEqual([{ two: 2 }]);
    expect(await sql.begin((tx) => tx`select 3 as three`)).toEqual([{ three: 3 }]);
  });

  it('refuses a statement awaited through catch or finally as well, so no way of awaiting it waits without bound', async () => {
    const release = await holdTheConnection();
    let caught: unknown;
    let finished: unknown;
    try {
      caught = await sql`select 1`.catch((error: unknown) => error);
      finished = await refusal(sql`select 1`.finally(() => undefined));
    } finally {
      await release();
    }
    expect(caught).toBeInstanceOf(BusyError);
    expect(finished).toBeInstanceOf(BusyError);
  });

  it('runs a statement once however often it is awaited, and a fragment that is never run holds no connection', async () => {
    await sql`create temporary table if not exists guarded_runs (n integer)`;
    // A temporary table lives on one connection: the pool has one.
    const insert = sql`insert into guarded_runs values (1) returning n`;
    const [first, second] = await Promise.all([insert, insert.then((rows) => rows)]);
    expect(first).toEqual([{ n: 1 }]);
    expect(second).toEqual([{ n: 1 }]);
    expect(await insert.finally(() => undefined)).toEqual([{ n: 1 }]);

    // Fragments nest in statements and are never awaited themselves: more of them than the pool's
    // one connection neither wait nor hold it.
    const fragments = Array.from({ length: 5 }, (_, index) => sql`and n >= ${index - 4}`);
    const [row] = await sql<{ runs: number }[]>`select count(*)::int as runs from guarded_runs where true ${fragments[0]!}`;
    expect(row?.runs).toBe(1);
  });

  it("keeps the driver's helpers and settings: json, array, identifiers and options", async () => {
    const [row] = await sql<{ document: { a: number }; list: string[]; named: number }[]>`
      select ${sql.json({ a: 1 })}::jsonb as document, ${sql.array(['x', 'y'])}::text[] as list, 5 as ${sql('named')}`;
    expect(row).toEqual({ document: { a: 1 }, list: ['x', 'y'], named: 5 });
    expect(sql.options.max).toBe(1);
  });
});
