import { EventHubProducerClient } from '@azure/event-hubs';
import type { DevHost } from '../../development/devhost/host';
import { changeEvent, type HitRow } from '../../development/ingest/debeziumEvents';
import { sendChangeEvents } from '../../development/ingest/sendChangeEvents';
import { startLocalEventHubs, type LocalEventHubs } from '../../development/local/eventHubs/localEventHubs';
import { functionDefinitions } from '../../functions/definitions';
import { joinChallenge } from '../../shared/challenges/participationRepository';
import { overrideSettings } from '../../shared/config/settings';
import { getSql } from '../../shared/db/client';
import { addMember, createClub, linkShooter, makeChallenge, unique } from '../challenges/support';
import { bearer } from '../support/tokens';
import { startFeedHost, type LoggedLine } from './feedHost';

// Real sockets and SDK link set-up take a while on a busy machine.
jest.setTimeout(90_000);

const HUB = 'club-data-progress';

/**
 * Shots on the board within seconds: an event sent to the hub reaches the leaderboard route
 * through the ingest function and the progress drain on its own schedule (the host runs no other
 * timer, so the 15-minute sweep cannot be what moved the score), and a redelivered event does not
 * count twice.
 */
describe('progress on the board right after ingest: producer → local hub → ingest → drain timer → leaderboard', () => {
  const logged: LoggedLine[] = [];
  const restores: (() => void)[] = [];
  let hub: LocalEventHubs;
  let producer: EventHubProducerClient;
  let host: DevHost;

  beforeAll(async () => {
    hub = await startLocalEventHubs({ port: 0, eventHubs: { [HUB]: { partitionCount: 2, consumerGroups: ['ingest'] } } });
    restores.push(
      overrideSettings({
        INGEST_EVENTHUB_CONNECTION: hub.connectionString(),
        INGEST_EVENTHUB_NAME: HUB,
        INGEST_EVENTHUB_CONSUMER_GROUP: 'ingest',
        CHALLENGE_PROGRESS_DRAIN_SCHEDULE: '*/1 * * * * *',
        // The drain's `timer_completed` lines are what shows it did the work.
        LOG_LEVEL: 'info',
      }),
    );
    producer = new EventHubProducerClient(hub.connectionString(), HUB);
    host = await startFeedHost(functionDefinitions, logged, undefined, ['challengeProgressDrain']);
  });

  afterAll(async () => {
    await host?.close();
    await producer?.close();
    await hub?.close();
    for (const restore of restores.splice(0).reverse()) restore();
  });

  it('shows a shot sent to the hub on the leaderboard within seconds, and a redelivery changes nothing', async () => {
    const club = await createClub();
    const member = unique('member');
    await addMember(club.clubId, member);
    const shooterId = 4711;
    await linkShooter(club, member, String(shooterId));
    const challenge = await makeChallenge({ rules: { goal: { metric: 'shots', target: 100 } } });
    await joinChallenge(getSql(), member, challenge.id, { clubId: club.clubId }, new Date(Date.now() - 60_000));

    const score = async (): Promise<number | undefined> => {
      const response = await fetch(`${host.url}/api/challenges/${challenge.id}/leaderboard?scope=global`, {
        headers: await bearer(member),
      });
      expect(response.status).toBe(200);
      return ((await response.json()) as { me: { score: number } | null }).me?.score;
    };
    const boardShows = async (expected: number, withinMs: number): Promise<number> => {
      const started = Date.now();
      while ((await score()) !== expected) {
        if (Date.now() - started > withinMs)
          throw new Error(`the board did not show ${expected} within ${withinMs} ms (shows ${await score()})`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return Date.now() - started;
    };
    expect(await score()).toBe(0);

    const shot = (id: number, lsn: number) => {
      const row: HitRow = {
        id,
        club_id: club.clubNumber,
        shooter_id: shooterId,
        discipline: 'LG 10m',
        series: 1,
        shot_no: id,
        value: 9.5,
        shot_at: Date.now() * 1000,
      };
      return changeEvent('hits', club.clubNumber, 'c', { after: row }, { lsn, txId: lsn, committedAtMs: Date.now() });
    };
    const evening = [shot(1, 1_000), shot(2, 1_100), shot(3, 1_200)];

    const sentAt = Date.now();
    await sendChangeEvents(producer, evening);
    // The feed waits up to a second for a batch, the drain runs every second; the rest is the apply and the evaluation.
    await boardShows(3, 10_000);
    expect(Date.now() - sentAt).toBeLessThan(10_000);

    // The same events again (a redelivery) and then one new shot: only the new one counts.
    await sendChangeEvents(producer, [...evening, shot(4, 1_300)]);
    await boardShows(4, 10_000);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await score()).toBe(4);
    expect(logged.filter((line) => line.line.includes('timer_failed'))).toEqual([]);
    // The drain ran as its own function; the ingest invocations only applied.
    const drains = logged
      .filter((line) => line.line.includes('"timer_completed"'))
      .map((line) => JSON.parse(line.line) as { function: string; evaluated: number })
      .filter((line) => line.function === 'challengeProgressDrain');
    expect(drains.reduce((sum, drain) => sum + drain.evaluated, 0)).toBeGreaterThanOrEqual(2);
    // The ingest invocations applied and returned: none of them evaluated (their outcome carries no progress).
    const batches = logged
      .filter((line) => line.line.includes('"event_batch_completed"'))
      .map((line) => JSON.parse(line.line) as Record<string, unknown>);
    expect(batches.length).toBeGreaterThanOrEqual(2);
    expect(batches.filter((batch) => 'progress' in batch)).toEqual([]);
  });
});
