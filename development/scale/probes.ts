import { performance } from 'node:perf_hooks';
import type { EventHubProducerClient } from '@azure/event-hubs';
import { changeEvent, toEventData, type HitRow } from '../ingest/debeziumEvents';
import { activeClubNumber, shooterId } from './hitRows';

/**
 * Send-to-board latency: a probe shot for a tracked member's shooter goes to the hub through the
 * producer, and the member's leaderboard (GET /api/challenges/{id}/leaderboard?scope=club, as the
 * member) is polled until their own row shows the higher score. The time from the send to that
 * answer is one figure; a probe not seen within PROBE_TIMEOUT_MS counts as never seen.
 */
export interface TrackedMember {
  userId: string;
  clubIndex: number;
  challengeId: string;
  token: string;
}

const POLL_MS = 100;
const PROBE_TIMEOUT_MS = 60_000;
const PAUSE_MS = 2000;

export interface ProbeResult {
  latenciesMs: number[];
  unseen: number;
}

export async function probeUntil(
  deadline: number,
  members: readonly TrackedMember[],
  options: { baseUrl: string; producer: EventHubProducerClient; partitions: number; shooterIndex: number; firstRecord: number },
): Promise<ProbeResult> {
  const result: ProbeResult = { latenciesMs: [], unseen: 0 };
  let record = options.firstRecord;
  await Promise.all(
    members.map(async (member) => {
      const score = async (): Promise<number> => {
        const response = await fetch(`${options.baseUrl}/api/challenges/${member.challengeId}/leaderboard?scope=club&limit=20`, {
          headers: { authorization: `Bearer ${member.token}` },
        });
        if (!response.ok) throw new Error(`leaderboard answered ${response.status} for ${member.userId}: ${await response.text()}`);
        const page = (await response.json()) as { me: { score: number } | null };
        return page.me?.score ?? 0;
      };
      while (performance.now() < deadline) {
        const before = await score();
        record += 1;
        const club = activeClubNumber(member.clubIndex);
        const now = Date.now();
        const row: HitRow = {
          id: record,
          club_id: club,
          shooter_id: Number(shooterId(options.shooterIndex)),
          discipline: 'LG 10m',
          series: 1,
          shot_no: 1,
          value: 10.0,
          shot_at: (now - 1000) * 1000,
        };
        const event = changeEvent<HitRow>(
          'hits',
          club,
          'c',
          { after: row },
          { lsn: 90_000_000 + record, txId: record, committedAtMs: now - 500 },
        );
        const sentAt = performance.now();
        await options.producer.sendBatch([toEventData(event)], { partitionId: String(member.clubIndex % options.partitions) });
        let seen = false;
        while (!seen && performance.now() - sentAt < PROBE_TIMEOUT_MS) {
          await new Promise((resolve) => setTimeout(resolve, POLL_MS));
          seen = (await score()) > before;
        }
        if (seen) result.latenciesMs.push(performance.now() - sentAt);
        else result.unseen += 1;
        await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
      }
    }),
  );
  return result;
}
