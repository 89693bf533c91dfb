import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { InvocationContext } from '@azure/functions';
import type { IncomingMessage } from '../../shared/ingest/contract';

/** Bodies exactly as the shipped connector configuration emits them (tests/fixtures/ingest). */
export const connectorBodies = JSON.parse(readFileSync(path.join(__dirname, '../fixtures/ingest/connector-bodies.json'), 'utf8')) as Record<
  'hitCreate' | 'hitUpdate' | 'hitDelete' | 'hitSnapshotRead' | 'shooterCreate',
  Record<string, unknown>
>;

/** A club number no other test file uses. */
/** Admission thresholds low enough for a test to reach rejecting and quarantine with a few events. */
export const TEST_THRESHOLDS = { rejectingThreshold: 2, quarantineThreshold: 5, windowSeconds: 300, driftQuietSeconds: 900 };

export function uniqueClub(): string {
  return `9${randomBytes(4).readUInt32BE(0)}`;
}

export interface HitInput {
  id: string | number;
  clubId: string;
  lsn: number;
  op?: 'c' | 'u' | 'd' | 'r';
  value?: number;
  shooterId?: number;
  series?: number;
  shotNo?: number;
  shotAtMicros?: number;
  table?: string;
  tsMs?: number;
}

export function hitBody(input: HitInput): Record<string, unknown> {
  const op = input.op ?? 'c';
  const row = {
    id: input.id,
    club_id: input.clubId,
    shooter_id: input.shooterId ?? 17,
    discipline: 'LG 10m',
    series: input.series ?? 1,
    shot_no: input.shotNo ?? 1,
    value: input.value ?? 10.1,
    shot_at: input.shotAtMicros ?? 1_763_665_201_123_456,
  };
  return {
    before: op === 'd' || op === 'u' ? { id: input.id, club_id: input.clubId } : null,
    after: op === 'd' ? null : row,
    source: {
      version: '2.7.3.Final',
      connector: 'postgresql',
      name: `mirror_${input.clubId}`,
      ts_ms: input.tsMs ?? 1_763_665_201_500,
      snapshot: op === 'r' ? 'true' : 'false',
      db: 'mirror',
      sequence: `[null,"${input.lsn}"]`,
      schema: 'public',
      table: input.table ?? 'hits',
      txId: 700,
      lsn: input.lsn,
      xmin: null,
    },
    op,
    ts_ms: (input.tsMs ?? 1_763_665_201_500) + 100,
    transaction: null,
  };
}

export function shooterBody(input: {
  id: string | number;
  clubId: string;
  lsn: number;
  op?: 'c' | 'u' | 'd';
  name?: string;
  deleted?: boolean;
}) {
  const op = input.op ?? 'c';
  return {
    before: op === 'c' ? null : { id: input.id, club_id: input.clubId },
    after:
      op === 'd'
        ? null
        : { id: input.id, club_id: input.clubId, display_name: input.name ?? 'Anna K.', birth_year: 1988, deleted: input.deleted ?? false },
    source: {
      connector: 'postgresql',
      name: `mirror_${input.clubId}`,
      ts_ms: 1_763_665_000_000,
      snapshot: 'false',
      db: 'mirror',
      schema: 'public',
      table: 'shooters',
      txId: 1,
      lsn: input.lsn,
    },
    op,
    ts_ms: 1_763_665_000_100,
  };
}

/** One event as a producer sends it: body plus the origin headers. */
export interface SentEvent {
  body: unknown;
  properties: Record<string, unknown>;
}

export function event(
  body: unknown,
  origin: { topic?: string | null; clubId?: string | null },
  encoding: 'text' | 'bytes' | 'base64' = 'text',
): SentEvent {
  const encode = (value: string) =>
    encoding === 'bytes' ? Buffer.from(value, 'utf8') : encoding === 'base64' ? Buffer.from(value, 'utf8').toString('base64') : value;
  const properties: Record<string, unknown> = {};
  if (origin.topic != null) properties['sourceTopic'] = encode(origin.topic);
  if (origin.clubId != null) properties['sourceClubId'] = encode(origin.clubId);
  return { body, properties };
}

export const hitEvent = (input: HitInput, encoding: 'text' | 'bytes' | 'base64' = 'text') =>
  event(hitBody(input), { topic: `club.${input.clubId}.hits`, clubId: input.clubId }, encoding);

let nextSequence = 1_000;

/**
 * The trigger metadata the Azure host hands the Node worker for a `cardinality: 'many'` batch:
 * first-letter-camel-cased keys, `enqueuedTimeUtcArray` without an offset, `partitionContext`.
 */
export function triggerMetadataFor(events: readonly SentEvent[], sequenceNumbers?: number[]): Record<string, unknown> {
  const sequences = sequenceNumbers ?? events.map(() => (nextSequence += 1));
  return {
    partitionContext: {
      fullyQualifiedNamespace: 'club-data.servicebus.windows.net',
      eventHubName: 'club-data',
      consumerGroup: '$Default',
      partitionId: '0',
    },
    triggerPartitionContext: {
      fullyQualifiedNamespace: 'club-data.servicebus.windows.net',
      eventHubName: 'club-data',
      consumerGroup: '$Default',
      partitionId: '0',
    },
    partitionKeyArray: events.map(() => null),
    offsetArray: sequences.map((sequence) => String(sequence * 512)),
    sequenceNumberArray: sequences,
    enqueuedTimeUtcArray: sequences.map(() => '2026-11-20T19:00:01.25'),
    propertiesArray: events.map((item) => item.properties),
    systemPropertiesArray: sequences.map((sequence) => ({ sequenceNumber: sequence, offset: String(sequence * 512), partitionKey: null })),
  };
}

export interface LoggedLine {
  level: string;
  line: string;
}

/** An InvocationContext as the Azure host builds it; its log lines land in `logged`. */
export function invocationFor(
  events: readonly SentEvent[],
  options: { sequenceNumbers?: number[]; retryCount?: number; logged?: LoggedLine[] } = {},
): InvocationContext {
  const { sequenceNumbers, retryCount = 0, logged = [] } = options;
  return new InvocationContext({
    invocationId: `inv-${randomBytes(4).toString('hex')}`,
    functionName: 'ingest',
    triggerMetadata: triggerMetadataFor(events, sequenceNumbers),
    retryContext: { retryCount, maxRetryCount: -1 },
    logHandler: (level, ...args) => logged.push({ level, line: args.map(String).join(' ') }),
  });
}

/** Messages as the core receives them from any runner. */
export function incoming(events: readonly SentEvent[], firstSequence = 1): IncomingMessage[] {
  return events.map((item, index) => ({
    body: item.body,
    properties: item.properties,
    sequenceNumber: firstSequence + index,
    enqueuedAt: null,
    partitionId: '0',
  }));
}
