import * as v from 'valibot';
import { checkTimestamp } from '../validation/timestamp';
import { BIRTH_YEAR, EARLIEST_SOURCE_MS, isSourceId, LATEST_SOURCE_MS, RING_VALUE_MAX, SMALL_INT_MAX, TEXT_LIMITS } from './contractBounds';
import { isStorableText, storableOrNull, storableText, TEXT_CAPS } from './storableText';

export { EARLIEST_SOURCE_MS, LATEST_SOURCE_MS } from './contractBounds';

/**
 * The ingest contract (docs/ingest-contract.md): Debezium's JSON envelope without schema on
 * topics `club.<clubId>.<entity>`, origin carried twice (application properties and payload).
 * Everything here is pure; a message either becomes a change, is skipped (tombstone) or is a
 * contract reject with a documented reason code.
 */

export const ENTITIES = ['shooters', 'hits'] as const;
export type Entity = (typeof ENTITIES)[number];

/** Reason codes of the contract's own checks, in the order they run. Stable: operators filter on them. */
export const REJECT_REASONS = [
  'topic_malformed',
  'entity_unknown',
  'club_scope_mismatch',
  'body_invalid',
  'topic_entity_mismatch',
  'origin_mismatch',
] as const;
/**
 * Every reason a contract reject can carry: the checks above, and consent_not_granted, which the
 * apply core gives the score rows of a club whose recorded consent is not GRANTED (it needs the
 * database, so classifyMessage never returns it; shared/ingest/consentRefusal.ts).
 */
export type RejectReason = (typeof REJECT_REASONS)[number] | 'consent_not_granted';

const TOPIC = /^club\.([A-Za-z0-9_-]{1,64})\.([a-z_]{1,64})$/;

/**
 * A club number (vereinsId) or record id as the mirror sends it: text or an integer. A custom
 * check rather than a union: a failing union branch builds an issue per row, and this runs for
 * every id of every event.
 */
const sourceId = v.pipe(
  v.custom<string | number>(isSourceId, 'must be an integer or an id of up to 64 letters, digits and _.:-'),
  v.transform(String),
);

/**
 * Text the database can store: no NUL (PostgreSQL refuses it and would fail the batch), no other
 * control character, no lone surrogate, and at most `max` characters.
 */
const text = (max: number) =>
  v.pipe(
    v.string(),
    v.maxLength(max, `must be at most ${max} characters`),
    v.check(isStorableText, 'contains a control character or a lone surrogate'),
  );

// The years a shot may carry (the epoch-microsecond check below holds the same bounds).
const SOURCE_RANGE = { from: '1970-01-01T00:00:00Z', before: '2201-01-01T00:00:00Z' };
const epochMillis = v.pipe(
  v.number(),
  v.finite(),
  v.minValue(EARLIEST_SOURCE_MS, 'must not be before 1970'),
  v.maxValue(LATEST_SOURCE_MS, 'must not be after 2200'),
);

/** A position (WAL lsn, transaction id): an integer that both a JS number and a bigint hold exactly. */
const position = v.pipe(v.number(), v.safeInteger(), v.minValue(0));

/**
 * A timestamp as the connector emits it: epoch microseconds for `timestamp` columns
 * (time.precision.mode=adaptive_time_microseconds), an ISO string for `timestamptz` columns.
 * Bounded so the database never refuses it.
 */
const sourceTimestamp = v.pipe(
  v.custom<number | string>(
    (value) =>
      (typeof value === 'number' && Number.isFinite(value)) ||
      (typeof value === 'string' && 'instant' in checkTimestamp(value, { within: SOURCE_RANGE })),
    'must be epoch microseconds or an ISO timestamp',
  ),
  v.transform((value) => (typeof value === 'number' ? new Date(Math.floor(value / 1000)) : new Date(value))),
  v.check((date) => {
    const time = date.getTime();
    return time >= EARLIEST_SOURCE_MS && time <= LATEST_SOURCE_MS;
  }, 'must lie between 1970 and 2200'),
);

const smallInt = (min: number, max: number) => v.pipe(v.number(), v.integer(), v.minValue(min), v.maxValue(max));

export const HitRowSchema = v.object({
  id: sourceId,
  club_id: sourceId,
  shooter_id: v.nullish(sourceId, null),
  discipline: v.nullish(text(TEXT_LIMITS.discipline), null),
  series: v.nullish(smallInt(0, SMALL_INT_MAX), null),
  shot_no: v.nullish(smallInt(0, SMALL_INT_MAX), null),
  // The ring value with one decimal (9.7, 10.4); numeric(4,1) in the database.
  value: v.nullish(v.pipe(v.number(), v.finite(), v.minValue(0), v.maxValue(RING_VALUE_MAX)), null),
  shot_at: v.nullish(sourceTimestamp, null),
});
export type HitRow = v.InferOutput<typeof HitRowSchema>;

export const ShooterRowSchema = v.object({
  id: sourceId,
  club_id: sourceId,
  display_name: v.nullish(text(TEXT_LIMITS.displayName), null),
  birth_year: v.nullish(smallInt(BIRTH_YEAR.min, BIRTH_YEAR.max), null),
  deleted: v.nullish(v.boolean(), false),
});
export type ShooterRow = v.InferOutput<typeof ShooterRowSchema>;

/** A delete's `before` may carry only the key columns (REPLICA IDENTITY DEFAULT). */
const KeyRowSchema = v.object({ id: sourceId, club_id: sourceId });

const SourceSchema = v.object({
  connector: v.optional(text(TEXT_LIMITS.connector)),
  name: v.optional(text(TEXT_LIMITS.name)),
  db: v.optional(text(TEXT_LIMITS.db)),
  schema: v.optional(text(TEXT_LIMITS.schema)),
  table: text(TEXT_LIMITS.table),
  lsn: position,
  txId: v.nullish(position),
  ts_ms: epochMillis,
  snapshot: v.nullish(v.union([text(TEXT_LIMITS.snapshot), v.boolean()])),
});

const EnvelopeSchema = v.object({
  before: v.nullish(v.record(v.string(), v.unknown()), null),
  after: v.nullish(v.record(v.string(), v.unknown()), null),
  source: SourceSchema,
  op: v.picklist(['c', 'u', 'd', 'r'], 'must be one of c, u, d, r'),
  ts_ms: v.optional(epochMillis),
});

/** Where a change sits in the source: its WAL position, then the event's sequence number. */
export interface SourcePosition {
  lsn: number;
  sequence: number;
}

interface ChangeBase extends SourcePosition {
  topic: string;
  clubId: string;
  recordId: string;
  deleted: boolean;
  /** When the change was made in the club database (source.ts_ms). */
  sourceAt: Date;
}
export type HitChange = ChangeBase & { entity: 'hits'; row: HitRow | null };
export type ShooterChange = ChangeBase & { entity: 'shooters'; row: ShooterRow | null };
export type Change = HitChange | ShooterChange;

export interface ContractReject {
  reason: RejectReason;
  topic: string | null;
  clubId: string | null;
  entity: string | null;
  detail: string;
  sequence: number | null;
}

/** One message as any runner received it; bodies and properties not yet decoded. */
export interface IncomingMessage {
  body: unknown;
  properties: Record<string, unknown>;
  sequenceNumber: number | null;
  enqueuedAt: Date | null;
  partitionId: string | null;
}

export type Classified = { kind: 'change'; change: Change } | { kind: 'tombstone' } | { kind: 'reject'; reject: ContractReject };

/**
 * Decodes a property value to text. Over the Kafka endpoint headers arrive as bytes: a Buffer or
 * Uint8Array, a serialised Buffer (`{type:'Buffer', data}`), or, after the .NET host serialised
 * a byte[] to JSON, base64 text; `expected` (a pattern or the exact text) tells the plain
 * reading from a base64 one.
 */
export function decodePropertyText(value: unknown, expected: RegExp | string): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') {
    if (value.length > MAX_PROPERTY_LENGTH) return value;
    if (fits(value, expected)) return value;
    const decoded = decodeBase64Text(value);
    return decoded !== null && fits(decoded, expected) ? decoded : value;
  }
  if (typeof value === 'number') return String(value);
  const bytes = asBytes(value);
  return bytes ? UTF8.decode(bytes) : null;
}

/** One decoder for every event: without `stream` a decode keeps no state between calls. */
const UTF8 = new TextDecoder('utf-8', { fatal: false });

/** Longer property values never fit the topic or a club id; they are not decoded, only refused. */
const MAX_PROPERTY_LENGTH = 1024;

function fits(text: string, expected: RegExp | string): boolean {
  return typeof expected === 'string' ? text === expected : expected.test(text);
}

function asBytes(value: unknown): Uint8Array | null {
  if (value instanceof Uint8Array) return value;
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  if (Array.isArray(value) && value.every((item) => typeof item === 'number')) return Uint8Array.from(value);
  if (typeof value === 'object' && value !== null) {
    const { type, data } = value as { type?: unknown; data?: unknown };
    if (type === 'Buffer' && Array.isArray(data)) return asBytes(data);
  }
  return null;
}

function decodeBase64Text(value: string): string | null {
  if (!value || value.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(value)) return null;
  const text = Buffer.from(value, 'base64').toString('utf8');
  return /^[\x20-\x7e]+$/.test(text) ? text : null;
}

/** The body as JSON: objects pass, strings and bytes are parsed; null/empty means a tombstone. */
function decodeBody(body: unknown): { kind: 'tombstone' } | { kind: 'json'; value: unknown } | { kind: 'invalid'; detail: string } {
  if (body === null || body === undefined) return { kind: 'tombstone' };
  const bytes = typeof body === 'object' ? asBytes(body) : null;
  const textBody = typeof body === 'string' ? body : bytes ? UTF8.decode(bytes) : null;
  if (textBody === null) return { kind: 'json', value: body };
  const trimmed = textBody.trim();
  if (trimmed === '' || trimmed === 'null') return { kind: 'tombstone' };
  try {
    return { kind: 'json', value: JSON.parse(textBody) as unknown };
  } catch {
    return { kind: 'invalid', detail: 'body is not JSON' };
  }
}

/** The first issues, each path and message capped: valibot's default messages quote the received value. */
function issuesText(issues: readonly v.BaseIssue<unknown>[]): string {
  return issues
    .slice(0, 3)
    .map((issue) => `${storableText(v.getDotPath(issue) ?? '(body)', 80)}: ${storableText(issue.message, 120)}`)
    .join('; ');
}

function isEntity(value: string): value is Entity {
  return (ENTITIES as readonly string[]).includes(value);
}

function rejected(
  reason: RejectReason,
  detail: string,
  topic: string | null,
  clubId: string | null,
  entity: string | null,
  sequence: number | null,
): Classified {
  // Everything a reject carries is stored and served: cut and cleaned here, once.
  return {
    kind: 'reject',
    reject: {
      reason,
      topic: storableOrNull(topic, TEXT_CAPS.topic),
      clubId: storableOrNull(clubId, TEXT_CAPS.clubId),
      entity: storableOrNull(entity, TEXT_CAPS.entity),
      detail: storableText(detail, TEXT_CAPS.detail),
      sequence,
    },
  };
}

/** Classifies one message against the contract. Never throws. Runs for every event: no closures. */
export function classifyMessage(message: IncomingMessage): Classified {
  const sequence = message.sequenceNumber;
  const topicText = decodePropertyText(message.properties['sourceTopic'], TOPIC);
  const topicMatch = topicText ? TOPIC.exec(topicText) : null;
  if (!topicMatch) {
    return rejected(
      'topic_malformed',
      topicText ? 'sourceTopic is not club.<clubId>.<entity>' : 'sourceTopic property missing',
      topicText,
      null,
      null,
      sequence,
    );
  }
  const [, topicClub = '', entityName = ''] = topicMatch;
  if (!isEntity(entityName)) {
    return rejected(
      'entity_unknown',
      `entity ${entityName} is not one of ${ENTITIES.join(', ')}`,
      topicText,
      topicClub,
      entityName,
      sequence,
    );
  }
  const entity = entityName;

  const headerClub = decodePropertyText(message.properties['sourceClubId'], topicClub);
  if (headerClub !== topicClub) {
    return rejected(
      'club_scope_mismatch',
      headerClub === null ? 'sourceClubId property missing' : `sourceClubId ${headerClub} outside topic scope ${topicClub}`,
      topicText,
      topicClub,
      entity,
      sequence,
    );
  }

  const decoded = decodeBody(message.body);
  if (decoded.kind === 'tombstone') return { kind: 'tombstone' };
  if (decoded.kind === 'invalid') return rejected('body_invalid', decoded.detail, topicText, topicClub, entity, sequence);
  const parsed = parseWithSchemas(decoded.value, entity);
  if ('reason' in parsed) return rejected(parsed.reason, parsed.detail, topicText, topicClub, entity, sequence);
  const { deleted, row } = parsed;
  if (row.club_id !== topicClub)
    return rejected('origin_mismatch', `payload club_id ${row.club_id} but origin ${topicClub}`, topicText, topicClub, entity, sequence);

  const base = {
    topic: topicText ?? '',
    clubId: topicClub,
    recordId: row.id,
    lsn: parsed.lsn,
    sequence: sequence ?? 0,
    sourceAt: new Date(parsed.tsMs),
  };
  if (entity === 'hits') {
    return { kind: 'change', change: { ...base, entity, deleted, row: deleted ? null : (row as HitRow) } };
  }
  const shooter = deleted ? null : (row as ShooterRow);
  return { kind: 'change', change: { ...base, entity, deleted: deleted || Boolean(shooter?.deleted), row: shooter } };
}

export type Parsed = { deleted: boolean; lsn: number; tsMs: number; row: HitRow | ShooterRow | { id: string; club_id: string } };

/** The definition of a valid body; a failure names the reason and detail. */
export function parseWithSchemas(value: unknown, entity: Entity): Parsed | { reason: RejectReason; detail: string } {
  const envelope = v.safeParse(EnvelopeSchema, value);
  if (!envelope.success) return { reason: 'body_invalid', detail: issuesText(envelope.issues) };
  const { op, source, before, after } = envelope.output;
  if (source.table !== entity) return { reason: 'topic_entity_mismatch', detail: `source.table ${source.table} on a ${entity} topic` };
  const deleted = op === 'd';
  const image = deleted ? before : after;
  if (!image) return { reason: 'body_invalid', detail: deleted ? 'before: required for op d' : 'after: required for op ' + op };
  const rowSchema = deleted ? KeyRowSchema : entity === 'hits' ? HitRowSchema : ShooterRowSchema;
  const row = v.safeParse(rowSchema, image);
  if (!row.success) return { reason: 'body_invalid', detail: issuesText(row.issues) };
  return { deleted, lsn: source.lsn, tsMs: source.ts_ms, row: row.output };
}

/** Path of a message for admission: the producer path an operator fixes. */
export function pathKey(topic: string | null, clubId: string | null, entity: string | null): string {
  // Its parts are clean already (topic regex, or cleaned in `rejected`); only the length is capped.
  const key = `${topic ?? '?'}|${clubId ?? '?'}|${entity ?? '?'}`;
  return key.length > TEXT_CAPS.path ? storableText(key, TEXT_CAPS.path) : key;
}
