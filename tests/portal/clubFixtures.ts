import { randomUUID } from 'node:crypto';
import { syncKnownClubs } from '../../shared/clubMaster/knownClubSync';
import type { Sql } from '../../shared/db/client';
import { recordStarterlists } from '../../shared/freshness/starterlists';
import { saveStoredPlan } from '../../shared/freshness/freshnessRepository';
import { applyIngestBatch } from '../../shared/ingest/apply';
import { recordDeadLetters } from '../../shared/ingest/deadLetterRepository';
import { runHeartbeat } from '../../shared/ingest/eventRunner';
import { addEdgeToken, type ClubFixture } from '../support/fixtures';
import { addHit, createFreshnessClub } from '../freshness/fixtures';
import { event, hitBody, incoming, TEST_THRESHOLDS } from '../ingest/fixtures';

const HOUR = 3_600_000;
const ingestOptions = () => ({
  runner: { id: 'event:club-page', kind: 'event' as const },
  statusEnabled: true,
  thresholds: TEST_THRESHOLDS,
  rejectLogMax: 1000,
  now: () => new Date(),
});

/**
 * A club on a bad evening, as an operator finds it: its last hit a month old (stale), its box
 * calling the cloud (token used now) and pushing starter lists with its Thursday check finding hits
 * (transport stalled), but its club master report three days old while the box calls (refused);
 * a stored plan, a leader and two members, and a box elsewhere listing its number (catalog).
 */
export async function seedIncidentClub(sql: Sql, name: string): Promise<ClubFixture> {
  const club = await createFreshnessClub(sql, { name, leaders: 1, members: 2 });
  const vereinsId = club.vereinsId ?? '';
  await addHit(sql, vereinsId, new Date(Date.now() - 30 * 24 * HOUR));
  await saveStoredPlan(
    sql,
    club.clubId,
    { timeZone: 'Europe/Berlin', evenings: [{ weekday: 'tuesday', start: '18:30', end: '21:00', endsNextDay: false }] },
    'admin-fixture',
  );
  await addEdgeToken(sql, club.clubId, new Date());
  await syncKnownClubs(sql, club.clubId, [{ vereinsId, name }]);
  await sql`update club_master_report set last_reported_at = ${new Date(Date.now() - 72 * HOUR)} where club_id = ${club.clubId}`;
  await recordStarterlists(sql, club.clubId, {
    starterlists: [{ id: 'LG-1', name: 'Luftgewehr', date: '2026-11-24', discipline: 'Luftgewehr 10 m', laneCount: 12, startersCount: 18 }],
    boxCheck: { checkedAt: new Date().toISOString(), eveningStart: new Date(Date.now() - 48 * HOUR).toISOString(), hitsAfterEvening: true },
  });
  return club;
}

/**
 * Five rejects on the club's hits path (its topic, a foreign club id in the header): quarantined
 * and drift suspected; plus one dead letter of its topic and one reject of another club's.
 */
export async function breakClubPath(sql: Sql, vereinsId: string, otherVereinsId: string): Promise<void> {
  const options = ingestOptions();
  await runHeartbeat(sql, options);
  // The other club's first: the drift detail names the newest drift signal, which is then the club's.
  const other = event(hitBody({ id: 9, clubId: otherVereinsId, lsn: 9 }), { topic: `club.${otherVereinsId}.hits`, clubId: '2' });
  await applyIngestBatch(sql, incoming([other], 10), options);
  const bad = (lsn: number) => event(hitBody({ id: lsn, clubId: vereinsId, lsn }), { topic: `club.${vereinsId}.hits`, clubId: '1' });
  await applyIngestBatch(sql, incoming([bad(1), bad(2), bad(3), bad(4), bad(5)]), options);
  await recordDeadLetters(
    sql,
    options.runner,
    new Date(),
    [
      {
        sqlState: '23514',
        detail: `check constraint refused the hit ${randomUUID()}`,
        topic: `club.${vereinsId}.hits`,
        clubId: vereinsId,
        entity: 'hits',
        partitionId: '0',
        sequenceNumber: 42,
        enqueuedAt: new Date(),
        message: null,
      },
    ],
    { keep: 1000, maxAgeDays: 30 },
  );
}

/**
 * What the diagnostics summary and the club pages list as failing: the club's last club master
 * report moved to 2000 (so it leads the oldest-first lists in every run), an email to `user-<tag>`
 * that failed for `reason`, and a push held until 2100 (no worker's clock reaches it) in the queue.
 */
export async function seedFailingDelivery(sql: Sql, clubId: string, tag: string, reason: string): Promise<void> {
  await sql`update club_master_report set last_reported_at = '2000-01-01T00:00:00Z' where club_id = ${clubId}`;
  const [outbox] = await sql<{ id: string }[]>`
    insert into notification_outbox (user_id, channel, deliver_after, title, tone, status, attempts)
    values (${`user-${tag}`}, 'email', now() - interval '1 hour', 'Training', 'info', 'failed', 1) returning id`;
  await sql`
    insert into notification_delivery_log (outbox_id, user_id, channel, attempt, outcome, reason)
    values (${outbox?.id ?? ''}, ${`user-${tag}`}, 'email', 1, 'failed', ${reason})`;
  await sql`
    insert into notification_outbox (user_id, channel, deliver_after, title, tone)
    values (${`user-${tag}`}, 'push', '2100-01-01T00:00:00Z', 'Training', 'info')`;
}
