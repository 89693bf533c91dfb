import type { EventData } from '@azure/event-hubs';

/**
 * Change events as the box's Debezium PostgreSQL connector publishes them (docs/ingest-contract.md):
 * topic `club.<clubId>.<entity>`, the JSON envelope without schema, and the origin headers
 * `sourceTopic` / `sourceClubId`. The simulate command, the tests and the benchmark build their
 * events here so all of them send the same shapes.
 */
export type Entity = 'shooters' | 'hits';
export type Operation = 'c' | 'u' | 'd' | 'r';

export interface ShooterRow {
  id: number;
  club_id: string;
  display_name: string;
  birth_year: number | null;
  deleted: boolean;
}

export interface HitRow {
  id: number;
  club_id: string;
  shooter_id: number;
  discipline: string;
  series: number;
  shot_no: number;
  /** Ring value with one decimal, 0.0 to 10.9. */
  value: number;
  /** Device clock, epoch microseconds (time.precision.mode=adaptive_time_microseconds). */
  shot_at: number;
}

export interface DebeziumSource {
  version: string;
  connector: 'postgresql';
  name: string;
  db: string;
  schema: string;
  table: string;
  lsn: number;
  txId: number;
  ts_ms: number;
  snapshot: 'true' | 'last' | 'false';
  sequence: string;
  xmin: null;
}

export interface DebeziumEnvelope<Row> {
  before: Row | null;
  after: Row | null;
  source: DebeziumSource;
  op: Operation;
  ts_ms: number;
  transaction: null;
}

export interface ChangeEvent {
  topic: string;
  clubId: string;
  entity: Entity;
  /** null is a tombstone (the connector's empty message after a delete). */
  body: DebeziumEnvelope<ShooterRow> | DebeziumEnvelope<HitRow> | null;
}

/** Where a change sits in the source database's log. */
export interface SourcePosition {
  lsn: number;
  txId: number;
  /** Commit time in the mirror database. */
  committedAtMs: number;
  snapshot?: boolean;
}

// The mirror's tables are named like the entities (docs/ingest-contract.md).
const TABLES: Record<Entity, string> = { shooters: 'shooters', hits: 'hits' };

export function topicFor(clubId: string, entity: Entity): string {
  return `club.${clubId}.${entity}`;
}

export function changeEvent<Row extends ShooterRow | HitRow>(
  entity: Entity,
  clubId: string,
  op: Operation,
  rows: { before?: Row | null; after?: Row | null },
  position: SourcePosition,
): ChangeEvent {
  const body: DebeziumEnvelope<Row> = {
    before: rows.before ?? null,
    after: rows.after ?? null,
    source: {
      version: '2.7.3.Final',
      connector: 'postgresql',
      // topic.prefix of infra/connector/debezium-club-data.json
      name: `mirror_${clubId}`,
      db: 'mirror',
      schema: 'public',
      table: TABLES[entity],
      lsn: position.lsn,
      txId: position.txId,
      ts_ms: position.committedAtMs,
      snapshot: position.snapshot ? 'true' : 'false',
      sequence: JSON.stringify([String(position.lsn - 56), String(position.lsn)]),
      xmin: null,
    },
    op,
    // The connector sees the change shortly after the commit.
    ts_ms: position.committedAtMs + 40,
    transaction: null,
  };
  return { topic: topicFor(clubId, entity), clubId, entity, body: body as ChangeEvent['body'] };
}

/**
 * The event as the producer sends it. Over the Kafka endpoint the headers arrive as UTF-8 bytes;
 * `headersAsBytes` sends them that way, to exercise the decoding.
 */
export function toEventData(event: ChangeEvent, options: { headersAsBytes?: boolean } = {}): EventData {
  const header = (value: string) => (options.headersAsBytes ? Buffer.from(value, 'utf8') : value);
  return {
    // The body as JSON bytes, as the connector writes it; an empty body for a tombstone.
    body: event.body === null ? Buffer.alloc(0) : Buffer.from(JSON.stringify(event.body), 'utf8'),
    properties: { sourceTopic: header(event.topic), sourceClubId: header(event.clubId) },
  };
}

export interface EveningOptions {
  clubId: string;
  /** When the first shooter arrives. */
  startsAt: Date;
  shooters?: number;
  /** Same seed, same evening. */
  seed?: number;
  /** A tombstone after the deleted hit, as the connector sends with tombstones.on.delete=true. */
  tombstones?: boolean;
  /** Hit ids start after this one (50,000): evenings of one club need ranges of their own. */
  firstHitId?: number;
}

const FIRST_NAMES = [
  'Anna',
  'Ben',
  'Clara',
  'David',
  'Elena',
  'Felix',
  'Greta',
  'Hannes',
  'Ida',
  'Jonas',
  'Karla',
  'Lukas',
  'Mia',
  'Noah',
  'Olga',
  'Paul',
];
const LAST_NAMES = ['Bauer', 'Fischer', 'Hofmann', 'Keller', 'Lang', 'Maier', 'Neumann', 'Otto', 'Richter', 'Schulz', 'Vogel', 'Weber'];
const DISCIPLINES = [
  { name: 'LG 10m', series: 4, mean: 9.9, spread: 0.6 },
  { name: 'LP 10m', series: 4, mean: 8.9, spread: 1.1 },
  { name: 'KK 50m', series: 3, mean: 9.5, spread: 0.8 },
];

/**
 * A training evening at one club: the shooters first (as the mirror syncs them), then their hits
 * over two hours, ten shots a series, in commit order, with one corrected and one deleted hit.
 */
export function trainingEvening(options: EveningOptions): ChangeEvent[] {
  const random = seededRandom(options.seed ?? 1);
  const start = options.startsAt.getTime();
  const twoHours = 2 * 3600_000;
  let lsn = 24_000_000;
  let txId = 5_000;
  const position = (committedAtMs: number): SourcePosition => {
    lsn += 64 + Math.floor(random() * 512);
    txId += 1;
    return { lsn, txId, committedAtMs };
  };

  const events: ChangeEvent[] = [];
  const shooters: ShooterRow[] = Array.from({ length: options.shooters ?? 12 }, (_, index) => ({
    id: 1001 + index,
    club_id: options.clubId,
    display_name: `${FIRST_NAMES[index % FIRST_NAMES.length]} ${LAST_NAMES[Math.floor(random() * LAST_NAMES.length)]}`,
    birth_year: 1950 + Math.floor(random() * 60),
    deleted: false,
  }));
  shooters.forEach((row, index) =>
    events.push(changeEvent('shooters', options.clubId, 'c', { after: row }, position(start - 60_000 + index * 1000))),
  );

  const hits: { row: HitRow; atMs: number }[] = [];
  let hitId = options.firstHitId ?? 50_000;
  for (const shooter of shooters) {
    const discipline = DISCIPLINES[Math.floor(random() * DISCIPLINES.length)]!;
    // Arrive within the first hour, then a shot every 40 to 80 seconds.
    let atMs = start + Math.floor(random() * 3600_000);
    for (let series = 1; series <= discipline.series; series += 1) {
      for (let shot = 1; shot <= 10 && atMs < start + twoHours; shot += 1) {
        hitId += 1;
        const value = Math.round(Math.min(10.9, Math.max(0, discipline.mean + gaussian(random) * discipline.spread)) * 10) / 10;
        hits.push({
          atMs,
          row: {
            id: hitId,
            club_id: options.clubId,
            shooter_id: shooter.id,
            discipline: discipline.name,
            series,
            shot_no: shot,
            value,
            shot_at: atMs * 1000 + Math.floor(random() * 1000),
          },
        });
        atMs += 40_000 + Math.floor(random() * 40_000);
      }
      atMs += 120_000; // changing targets between series
    }
  }
  hits.sort((a, b) => a.atMs - b.atMs);
  for (const hit of hits) events.push(changeEvent('hits', options.clubId, 'c', { after: hit.row }, position(hit.atMs + 150)));

  // The range officer corrects one value and removes a stray shot at the end of the evening.
  const corrected = hits[Math.floor(hits.length / 2)];
  const removed = hits[hits.length - 1];
  const endMs = start + twoHours;
  if (corrected) {
    const after = { ...corrected.row, value: Math.min(10.9, Math.round((corrected.row.value + 0.3) * 10) / 10) };
    // REPLICA IDENTITY DEFAULT: `before` of an update or delete carries the key columns only.
    events.push(changeEvent('hits', options.clubId, 'u', { before: keyOf(corrected.row), after }, position(endMs + 60_000)));
  }
  if (removed && removed !== corrected) {
    events.push(changeEvent('hits', options.clubId, 'd', { before: keyOf(removed.row) }, position(endMs + 120_000)));
    if (options.tombstones) events.push({ topic: topicFor(options.clubId, 'hits'), clubId: options.clubId, entity: 'hits', body: null });
  }
  return events;
}

function keyOf(row: HitRow): HitRow {
  return { id: row.id, club_id: row.club_id } as HitRow;
}

/** A short burst for a quick check: two shooters and one series each. */
export function quickSample(options: Omit<EveningOptions, 'shooters'>): ChangeEvent[] {
  return trainingEvening({ ...options, shooters: 2 }).filter((event) => event.entity === 'shooters' || isFirstSeries(event));
}

function isFirstSeries(event: ChangeEvent): boolean {
  const row = event.body?.after ?? event.body?.before;
  return !!row && 'series' in row && row.series === 1 && event.body?.op === 'c';
}

/** mulberry32: small, fast, and the same sequence for the same seed everywhere. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function gaussian(random: () => number): number {
  const u = Math.max(random(), Number.EPSILON);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}
