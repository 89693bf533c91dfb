/** The ranges of the ingest contract (docs/ingest-contract.md, "Body"). */

/**
 * The range of every time an event carries, in epoch milliseconds: 1970-01-01 to 2200-01-01 UTC.
 * Both `Date` (±8.64e15 ms) and PostgreSQL's timestamptz (4713 BC to 294276 AD) hold all of it,
 * and no club database writes a change outside it.
 */
export const EARLIEST_SOURCE_MS = 0;
export const LATEST_SOURCE_MS = Date.UTC(2200, 0, 1);

/** A record id or club number as text. */
export const ID_TEXT = /^[A-Za-z0-9_.:-]{1,64}$/;

export const isSourceId = (value: unknown): value is string | number =>
  (typeof value === 'number' && Number.isSafeInteger(value)) || (typeof value === 'string' && ID_TEXT.test(value));

/** Row and source text caps. */
export const TEXT_LIMITS = {
  discipline: 100,
  displayName: 200,
  table: 64,
  connector: 100,
  name: 200,
  db: 100,
  schema: 100,
  snapshot: 20,
} as const;

export const SMALL_INT_MAX = 1_000_000;
export const RING_VALUE_MAX = 10.9;
export const BIRTH_YEAR = { min: 1900, max: 2200 } as const;
