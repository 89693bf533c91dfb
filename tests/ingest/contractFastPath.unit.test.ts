import fc from 'fast-check';
import { parseWithSchemas } from '../../shared/ingest/contract';
import { fastAccepted } from '../../shared/ingest/contractFastPath';
import { connectorBodies, hitBody, shooterBody } from './fixtures';

/**
 * The hand-written fast path is a shortcut, never a second definition: whatever it accepts, the
 * valibot schemas accept too, with the same row, position and time. Bodies are the valid ones
 * with fields replaced, removed or added by values at and beyond every bound.
 */
const RUNS = Number(process.env['FUZZ_RUNS'] ?? 3000);

const edgeValue = fc.oneof(
  fc.constantFrom(
    undefined,
    null,
    true,
    false,
    0,
    -0,
    -1,
    0.5,
    10.9,
    10.91,
    1e6,
    1e6 + 1,
    1899,
    1900,
    2200,
    2201,
    2 ** 53 - 1,
    2 ** 53,
    Date.UTC(2200, 0, 1),
    Date.UTC(2200, 0, 1) + 1,
    Date.UTC(2200, 0, 1) * 1000 + 999,
    Date.UTC(2200, 0, 1) * 1000 + 1000,
    1e16,
    -1e15,
    Number.NaN,
    Infinity,
    '',
    'hits',
    'shooters',
    'c',
    'd',
    'r',
    'u',
    'true',
    '4711',
    '2026-11-20T19:00:01Z',
    'a\u0000b',
    '\ud800',
    '\u0085',
    '🎯',
    'x'.repeat(64),
    'x'.repeat(65),
    'x'.repeat(101),
    'x'.repeat(201),
    [],
    {},
  ),
  fc.double(),
  fc.integer(),
  fc.string({ unit: 'binary', maxLength: 30 }),
);

const HIT_PATHS = [
  ['op'],
  ['ts_ms'],
  ['before'],
  ['after'],
  ['source'],
  ['source', 'table'],
  ['source', 'lsn'],
  ['source', 'ts_ms'],
  ['source', 'txId'],
  ['source', 'connector'],
  ['source', 'name'],
  ['source', 'db'],
  ['source', 'schema'],
  ['source', 'snapshot'],
  ['after', 'id'],
  ['after', 'club_id'],
  ['after', 'shooter_id'],
  ['after', 'discipline'],
  ['after', 'series'],
  ['after', 'shot_no'],
  ['after', 'value'],
  ['after', 'shot_at'],
  ['after', 'display_name'],
  ['after', 'birth_year'],
  ['after', 'deleted'],
  ['after', 'extra'],
] as const;

function withValue(body: Record<string, unknown>, path: readonly string[], value: unknown): Record<string, unknown> {
  const copy = structuredClone(body);
  const parent = path.slice(0, -1).reduce<unknown>((node, key) => (node as Record<string, unknown> | null)?.[key], copy);
  if (typeof parent === 'object' && parent !== null) {
    if (value === undefined) delete (parent as Record<string, unknown>)[path.at(-1)!];
    else (parent as Record<string, unknown>)[path.at(-1)!] = value;
  }
  return copy;
}

const bases: [string, 'hits' | 'shooters', Record<string, unknown>][] = [
  ['hit', 'hits', hitBody({ id: 1, clubId: '4711', lsn: 10 })],
  ['hit update', 'hits', hitBody({ id: 'a-1', clubId: '4711', lsn: 10, op: 'u' })],
  ['connector hit', 'hits', connectorBodies.hitCreate],
  ['shooter', 'shooters', shooterBody({ id: 5, clubId: '4711', lsn: 3 })],
  ['connector shooter', 'shooters', connectorBodies.shooterCreate],
];

describe('the contract fast path', () => {
  it.each(bases)('takes the common %s', (_name, entity, body) => {
    expect(fastAccepted(body, entity)).not.toBeNull();
  });

  it('accepts only what the schemas accept, with the same row, position and time', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...bases),
        fc.array(fc.tuple(fc.constantFrom(...HIT_PATHS), edgeValue), { minLength: 1, maxLength: 3 }),
        ([, entity, base], changes) => {
          const body = changes.reduce((current, [path, value]) => withValue(current, path, value), base);
          const fast = fastAccepted(body, entity);
          if (fast === null) return;
          expect(parseWithSchemas(body, entity)).toEqual({ deleted: false, lsn: fast.lsn, tsMs: fast.tsMs, row: fast.row });
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('leaves deletes, ISO times and doubtful bodies to the schemas', () => {
    const hit = hitBody({ id: 1, clubId: '4711', lsn: 10 });
    expect(fastAccepted(hitBody({ id: 1, clubId: '4711', lsn: 10, op: 'd' }), 'hits')).toBeNull();
    expect(fastAccepted(withValue(hit, ['after', 'shot_at'], '2026-11-20T19:00:01Z'), 'hits')).toBeNull();
    expect(fastAccepted(withValue(hit, ['source', 'table'], 'shooters'), 'hits')).toBeNull();
    expect(fastAccepted(withValue(hit, ['source', 'ts_ms'], 1e16), 'hits')).toBeNull();
    expect(fastAccepted(withValue(hit, ['after', 'discipline'], 'a\u0000'), 'hits')).toBeNull();
    expect(fastAccepted(JSON.stringify(hit), 'hits')).toBeNull();
  });
});
