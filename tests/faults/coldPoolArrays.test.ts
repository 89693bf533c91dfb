import { connect } from '../../shared/db/client';
import { getSettings } from '../../shared/config/settings';

/**
 * postgres.js learns the array types from the server on a connection's first use but pipelines
 * other queries onto it before the answer is in: an array parameter in such a query went out as
 * `a,b,c` and failed with 22P02 `malformed array literal` (seen once under the ingest bench; about
 * 30 of 1,200 such queries on fresh pools failed when tried directly on the driver). The pool's
 * warm-up gate (shared/db/poolGuard.ts) lets one query through until the types are known.
 */
describe('array parameters on a cold pool', () => {
  // Read back as JSON: the driver's text[] parser reads a NULL element as the string 'NULL'.
  const values = ['a', 'b,c', '{x}', 'q"uote', null, 'back\\slash', ' space ', 'NULL', ''];

  it('many concurrent first queries with array parameters on fresh pools all succeed, with the values intact', async () => {
    const failures: string[] = [];
    for (let trial = 0; trial < 15; trial += 1) {
      const sql = connect({ url: getSettings().DATABASE_URL ?? '', max: 10 });
      try {
        const answers = await Promise.all(
          Array.from({ length: 30 }, (_, i) =>
            (i % 2 === 0
              ? sql<{ v: (string | null)[] }[]>`select array_to_json(${sql.array(values)}::text[]) as v`
              : sql<{ v: (string | null)[] }[]>`select array_to_json(array_agg(a order by b)) as v
                   from unnest(${sql.array(values)}::text[], ${sql.array(values.map((_, j) => String(j)))}::int8[]) as u(a, b)`
            ).then(
              ([row]) => row?.v,
              (error: { code?: string }) => failures.push(String(error.code)),
            ),
          ),
        );
        for (const answer of answers) if (Array.isArray(answer)) expect(answer).toEqual(values);
      } finally {
        await sql.end({ timeout: 5 });
      }
    }
    expect(failures).toEqual([]);
  });
});
