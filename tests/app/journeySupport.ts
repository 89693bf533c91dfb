import type { Page } from 'playwright-core';
import { DEMO_CLUB } from '../../development/demo/seed';
import { changeEvent, type ChangeEvent, type HitRow } from '../../development/ingest/debeziumEvents';
import { evaluateProgressForClubs } from '../../shared/challenges/progress';
import { getSettings } from '../../shared/config/settings';
import { getSql } from '../../shared/db/client';
import type { IncomingMessage } from '../../shared/ingest/contract';
import { applyIngestBatch } from '../../shared/ingest/apply';
import { admissionThresholds } from '../../shared/ingest/eventRunner';

// Clear of the demo seed's hit ids (from 1,000,000) and the simulator's (from 50,001).
let nextHitId = 3_000_000;
let lsn = 90_000_000;

/**
 * Shots of one shooter of the demo club as the box's Debezium connector publishes them, spread
 * evenly between `from` and now (hit ids and log positions clear of the seed's and the simulator's).
 */
export function shotEvents(options: { shooterId: number; from: Date; values: readonly number[]; series: number }): ChangeEvent[] {
  const now = Date.now();
  const step = Math.max(1, Math.floor((now - options.from.getTime()) / (options.values.length + 1)));
  return options.values.map((value, index) => {
    const atMs = options.from.getTime() + step * (index + 1);
    nextHitId += 1;
    lsn += 128;
    const row: HitRow = {
      id: nextHitId,
      club_id: DEMO_CLUB.vereinsId,
      shooter_id: options.shooterId,
      discipline: 'LG 10m',
      series: options.series + Math.floor(index / 10),
      shot_no: (index % 10) + 1,
      value,
      shot_at: atMs * 1000,
    };
    return changeEvent('hits', DEMO_CLUB.vereinsId, 'c', { after: row }, { lsn, txId: lsn, committedAtMs: atMs + 100 });
  });
}

/**
 * Those shots through the ingest core (the path an Event Hubs batch takes), then the progress
 * evaluation for the club.
 */
export async function ingestShots(options: { shooterId: number; from: Date; values: readonly number[]; series: number }): Promise<void> {
  const messages: IncomingMessage[] = shotEvents(options).map((event, index) => ({
    body: event.body,
    properties: { sourceTopic: event.topic, sourceClubId: event.clubId },
    sequenceNumber: index,
    enqueuedAt: null,
    partitionId: null,
  }));
  const settings = getSettings();
  await applyIngestBatch(getSql(), messages, {
    runner: { id: 'member-journey', kind: 'event' },
    statusEnabled: false,
    thresholds: admissionThresholds(settings),
    rejectLogMax: settings.INGEST_REJECT_LOG_MAX,
    now: () => new Date(),
  });
  await evaluateProgressForClubs(getSql(), [DEMO_CLUB.vereinsId]);
}

/** The user ids of the rows a leaderboard shows, top to bottom (none when it is empty). */
export async function boardRows(page: Page): Promise<string[]> {
  await page.getByTestId('leaderboard').waitFor();
  const rows = await page.getByTestId('board-row').all();
  return Promise.all(rows.map(async (row) => (await row.getAttribute('data-user')) ?? ''));
}
