import { changeEvent, type ChangeEvent, type HitRow } from '../development/ingest/debeziumEvents';
import type { IncomingMessage } from '../shared/ingest/contract';

/**
 * `count` hit inserts spread over `clubs` clubs numbered from `firstClub`, grouped per club as the
 * connector's per-topic batches are: the traffic of the hub and worker benches.
 */
export function hitEvents(count: number, firstClub: number, clubs: number): ChangeEvent[] {
  const perClub = Math.ceil(count / clubs);
  const start = Date.parse('2026-11-20T18:30:00.000Z');
  const events: ChangeEvent[] = [];
  for (let club = 0; club < clubs && events.length < count; club += 1) {
    const clubId = String(firstClub + club);
    for (let i = 0; i < perClub && events.length < count; i += 1) {
      const atMs = start + i * 1000;
      const row: HitRow = {
        id: 100_000 + i,
        club_id: clubId,
        shooter_id: 1001 + (i % 12),
        discipline: 'LG',
        series: 1 + Math.floor(i / 10),
        shot_no: 1 + (i % 10),
        value: 9.7,
        shot_at: atMs * 1000,
      };
      events.push(
        changeEvent('hits', clubId, 'c', { after: row }, { lsn: 24_000_000 + i * 100, txId: 5000 + i, committedAtMs: atMs + 150 }),
      );
    }
  }
  return events;
}

/** The events as the core receives them from a runner: parsed bodies, origin headers as text. */
export function asCoreMessages(events: ChangeEvent[]): IncomingMessage[] {
  return events.map((event, index) => ({
    body: event.body,
    properties: { sourceTopic: event.topic, sourceClubId: event.clubId },
    sequenceNumber: index + 1,
    enqueuedAt: null,
    partitionId: '0',
  }));
}
