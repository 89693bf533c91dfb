import {
  BIRTH_YEAR,
  EARLIEST_SOURCE_MS,
  isEpochMillis,
  isPosition,
  isSourceId,
  LATEST_SOURCE_MS,
  RING_VALUE_MAX,
  SMALL_INT_MAX,
  TEXT_LIMITS,
} from './contractBounds';
import { isStorableText } from './storableText';

/**
 * The common case of the contract, checked by hand: a create, update or snapshot read of a hit or
 * a shooter whose every field is plainly valid. It accepts a subset of what the valibot schemas
 * accept and yields the same row; anything else (deletes, ISO times, any doubt) returns null and
 * takes the schema path, which also writes the reject's detail. It exists for speed only: the
 * schemas are the definition (tests/ingest/contractFastPath.unit.test.ts holds the two equal).
 */
export interface FastAccepted {
  lsn: number;
  tsMs: number;
  row: Record<string, unknown>;
}

type Entity = 'hits' | 'shooters';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype;

const nullish = (value: unknown) => value === null || value === undefined;

const optionalText = (value: unknown, max: number) =>
  value === undefined || (typeof value === 'string' && value.length <= max && isStorableText(value));

const nullishText = (value: unknown, max: number) =>
  nullish(value) || (typeof value === 'string' && value.length <= max && isStorableText(value));

const nullishInt = (value: unknown, min: number, max: number) =>
  nullish(value) || (typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max);

function sourceFits(source: unknown, entity: Entity): source is Record<string, unknown> {
  if (!isRecord(source)) return false;
  const { snapshot, txId } = source;
  return (
    source['table'] === entity &&
    isPosition(source['lsn']) &&
    isEpochMillis(source['ts_ms']) &&
    (nullish(txId) || isPosition(txId)) &&
    optionalText(source['connector'], TEXT_LIMITS.connector) &&
    optionalText(source['name'], TEXT_LIMITS.name) &&
    optionalText(source['db'], TEXT_LIMITS.db) &&
    optionalText(source['schema'], TEXT_LIMITS.schema) &&
    (nullish(snapshot) || typeof snapshot === 'boolean' || (typeof snapshot === 'string' && optionalText(snapshot, TEXT_LIMITS.snapshot)))
  );
}

/** Epoch microseconds as the schema reads them, or undefined when the schema path must decide. */
function shotAt(value: unknown): Date | null | undefined {
  if (nullish(value)) return null;
  if (typeof value !== 'number' || !Number.isFinite(value)) return undefined;
  const millis = Math.floor(value / 1000);
  return millis >= EARLIEST_SOURCE_MS && millis <= LATEST_SOURCE_MS ? new Date(millis) : undefined;
}

function hitRow(after: Record<string, unknown>): Record<string, unknown> | null {
  const { id, club_id: clubId, shooter_id: shooterId, discipline, series, shot_no: shotNo, value } = after;
  if (!isSourceId(id) || !isSourceId(clubId) || !(nullish(shooterId) || isSourceId(shooterId))) return null;
  if (!nullishText(discipline, TEXT_LIMITS.discipline)) return null;
  if (!nullishInt(series, 0, SMALL_INT_MAX) || !nullishInt(shotNo, 0, SMALL_INT_MAX)) return null;
  if (!(nullish(value) || (typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= RING_VALUE_MAX))) return null;
  const shot = shotAt(after['shot_at']);
  if (shot === undefined) return null;
  return {
    id: String(id),
    club_id: String(clubId),
    shooter_id: nullish(shooterId) ? null : String(shooterId),
    discipline: discipline ?? null,
    series: series ?? null,
    shot_no: shotNo ?? null,
    value: value ?? null,
    shot_at: shot,
  };
}

function shooterRow(after: Record<string, unknown>): Record<string, unknown> | null {
  const { id, club_id: clubId, display_name: displayName, birth_year: birthYear, deleted } = after;
  if (!isSourceId(id) || !isSourceId(clubId)) return null;
  if (!nullishText(displayName, TEXT_LIMITS.displayName) || !nullishInt(birthYear, BIRTH_YEAR.min, BIRTH_YEAR.max)) return null;
  if (!(nullish(deleted) || typeof deleted === 'boolean')) return null;
  return {
    id: String(id),
    club_id: String(clubId),
    display_name: displayName ?? null,
    birth_year: birthYear ?? null,
    deleted: deleted ?? false,
  };
}

export function fastAccepted(body: unknown, entity: Entity): FastAccepted | null {
  if (!isRecord(body)) return null;
  const { op, before, after, source } = body;
  if (op !== 'c' && op !== 'u' && op !== 'r') return null;
  if (!(body['ts_ms'] === undefined || isEpochMillis(body['ts_ms']))) return null;
  if (!(nullish(before) || isRecord(before)) || !isRecord(after)) return null;
  if (!sourceFits(source, entity)) return null;
  const row = entity === 'hits' ? hitRow(after) : shooterRow(after);
  return row ? { lsn: source['lsn'] as number, tsMs: source['ts_ms'] as number, row } : null;
}
