import type { IncomingMessage } from '../../shared/ingest/contract';

/**
 * Hit `index` of `club` as a Debezium create event of the club's mirror, shot at `atMs`: 40
 * shooters, two disciplines, series of ten. The apply core's benchmark and the storage figure of
 * the scale tooling measure the same rows, so their figures can be set side by side.
 */
export function sampleHitBody(club: string, index: number, atMs: number) {
  return {
    before: null,
    after: {
      id: index + 1,
      club_id: club,
      shooter_id: (index % 40) + 1,
      discipline: index % 2 ? 'LG 10m' : 'LP 10m',
      series: Math.floor(index / 10) % 4,
      shot_no: (index % 10) + 1,
      value: Math.round((7 + ((index * 37) % 39) / 10) * 10) / 10,
      shot_at: atMs * 1000,
    },
    source: {
      connector: 'postgresql',
      name: `mirror_${club}`,
      db: 'mirror',
      schema: 'public',
      table: 'hits',
      lsn: 1_000_000 + index * 64,
      txId: 9,
      ts_ms: atMs,
      snapshot: 'false',
    },
    op: 'c',
    ts_ms: atMs + 100,
  };
}

/** The same hit as the Node worker hands it to the apply core: parsed body, origin properties as text. */
export function sampleHitMessage(club: string, index: number, atMs: number): IncomingMessage {
  return {
    body: sampleHitBody(club, index, atMs),
    properties: { sourceTopic: `club.${club}.hits`, sourceClubId: club },
    sequenceNumber: index + 1,
    enqueuedAt: null,
    partitionId: '0',
  };
}
