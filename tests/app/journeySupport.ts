import type { Locator, Page } from 'playwright-core';
import { DEMO_CLUB } from '../../development/demo/seed';
import { changeEvent, type ChangeEvent, type HitRow } from '../../development/ingest/debeziumEvents';
import { evaluateProgressForClubs } from '../../shared/challenges/progress';
import { getSettings } from '../../shared/config/settings';
import { getSql } from '../../shared/db/client';
import type { IncomingMessage } from '../../shared/ingest/contract';
import { applyIngestBatch } from '../../shared/ingest/apply';
import { admissionThresholds } from '../../shared/ingest/eventRunner';
import { card } from './support';

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

/** Opens one of a leaderboard's boards (global, club) and waits until it shows that board. */
export async function openBoard(page: Page, board: 'global' | 'club'): Promise<void> {
  await page.getByTestId(`board-${board}`).click();
  await page.locator(`[data-testid="leaderboard"][data-board="${board}"]`).waitFor();
}

/** Flips one of a challenge card's privacy switches (by its label) and waits until the service took the change. */
export async function flipSharing(page: Page, card: Locator, label: string): Promise<void> {
  const saved = page.waitForResponse((response) => response.url().endsWith('/visibility') && response.request().method() === 'PATCH');
  await card.getByText(label, { exact: true }).click();
  expect((await saved).status()).toBe(200);
}

/**
 * Reloads the page and waits until the challenge's card shows `progress` (its words, such as
 * "Progress: 9.5 of 9"); answers how full its progress bar is (`aria-valuenow`).
 */
export async function progressShown(page: Page, challengeId: string, progress: string): Promise<string | null> {
  await page.reload();
  const shown = card(page, challengeId).getByTestId('progress');
  await shown.getByText(progress).waitFor();
  return shown.getByRole('progressbar').getAttribute('aria-valuenow');
}

/** Goes to `url` (the challenges page) and waits for the challenge's card; answers the card. */
export async function openCard(page: Page, url: string, challengeId: string): Promise<Locator> {
  await page.goto(url);
  const shown = card(page, challengeId);
  await shown.waitFor();
  return shown;
}

/**
 * Reloads the page, waits until the bell counts `unread` notifications, opens the inbox and
 * answers the text of the item that announces the completion of `challengeTitle`.
 */
export async function completionNotice(page: Page, unread: number, challengeTitle: string): Promise<string> {
  await page.reload();
  await page.getByRole('link', { name: `Notifications: ${unread} unread` }).waitFor();
  expect(await page.getByTestId('bell-count').innerText()).toBe(String(unread));
  await page.getByTestId('bell').click();
  const item = page.getByTestId('inbox-item').filter({ hasText: `Challenge completed: ${challengeTitle}` });
  await item.waitFor();
  return item.innerText();
}
