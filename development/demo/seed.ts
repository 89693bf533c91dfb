import { joinChallenge, putSharingPreferences } from '../../shared/challenges/participationRepository';
import { evaluateParticipation } from '../../shared/challenges/progress';
import { seedChallenges } from '../../shared/challenges/seed';
import type { Sql } from '../../shared/db/client';
import { ConflictError } from '../../shared/errors/domainErrors';
import type { IncomingMessage } from '../../shared/ingest/contract';
import { applyIngestBatch } from '../../shared/ingest/apply';
import { admissionThresholds } from '../../shared/ingest/eventRunner';
import { getSettings } from '../../shared/config/settings';
import { trainingEvening } from '../ingest/debeziumEvents';
import { demoUserBySub } from '../oidcProvider/demoUsers';

/**
 * The demo `npm start` fills the local database with: one club, its leader and two members (the
 * `sub`s of the local OpenID provider's demo users), four weekly training evenings of shot data
 * through the ingest core, the challenge presets, and the demo users' participations measured
 * against those shots, so the challenges page and the boards are filled on first sign-in.
 * Idempotent: every step upserts or skips what is there. Local only: nothing in ops/ or the
 * deployed app imports development/.
 */

export const DEMO_CLUB = { id: 'demo-club', name: 'Demo Schützengilde', vereinsId: '990001' } as const;

/** The demo users of the local OpenID provider and what they are in the demo club. */
export const DEMO_MEMBERSHIPS = [
  { userId: 'demo-leader', role: 'leader', shooterId: '1001', share: { shareWithinClub: true, shareGlobally: true } },
  { userId: 'demo-member-1', role: 'member', shooterId: '1002', share: { shareWithinClub: true, shareGlobally: true } },
  { userId: 'demo-member-2', role: 'member', shooterId: '1003', share: { shareWithinClub: true, shareGlobally: false } },
] as const;

/** The presets the demo users take part in: two global, two of the club. */
const DEMO_CHALLENGES = ['global-series-95', 'global-shots-500', `club-average-8-5@${DEMO_CLUB.id}`, `club-shots-1000@${DEMO_CLUB.id}`];

const EVENINGS = 4;
/** The demo's hit ids start here, clear of `npm run ingest:simulate`'s (from 50,001), so a simulated evening adds to the demo. */
const DEMO_FIRST_HIT_ID = 1_000_000;
const DAY = 86_400_000;

export interface DemoOutcome {
  hits: number;
  participations: number;
  completed: number;
}

/** The training evenings of the last four weeks, 18:30 UTC, the newest two days ago. */
export function demoEvenings(now: Date): Date[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), 18, 30);
  return Array.from({ length: EVENINGS }, (_, index) => new Date(today - (2 + (EVENINGS - 1 - index) * 7) * DAY));
}

export async function seedDemo(sql: Sql, now: Date = new Date()): Promise<DemoOutcome> {
  await sql`
    insert into club (id, name, vereins_id) values (${DEMO_CLUB.id}, ${DEMO_CLUB.name}, ${DEMO_CLUB.vereinsId})
    on conflict (id) do update set name = excluded.name, vereins_id = excluded.vereins_id, status = 'active', updated_at = now()`;
  for (const member of DEMO_MEMBERSHIPS) {
    await sql`
      insert into club_membership (club_id, user_id, role) values (${DEMO_CLUB.id}, ${member.userId}, ${member.role})
      on conflict (club_id, user_id) do update set role = excluded.role`;
    // The name their sign-in brings, so the boards name each of them before they signed in; a
    // profile that exists (a name the demo user chose) is left as it is.
    const name = demoUserBySub(member.userId)?.name;
    if (name) await sql`insert into person_profile (user_id, display_name) values (${member.userId}, ${name}) on conflict do nothing`;
  }

  const evenings = demoEvenings(now);
  const hits = await ingestEvenings(sql, evenings, now);
  for (const member of DEMO_MEMBERSHIPS) {
    await sql`
      insert into challenge_shooter_link (club_id, user_id, shooter_id, status, decided_at)
      values (${DEMO_CLUB.id}, ${member.userId}, ${member.shooterId}, 'confirmed', ${now})
      on conflict do nothing`;
  }

  await seedChallenges(sql, { clubId: DEMO_CLUB.id }, now);
  const joinedAt = new Date(evenings[0]!.getTime() - DAY);
  const outcome: DemoOutcome = { hits, participations: 0, completed: 0 };
  for (const member of DEMO_MEMBERSHIPS) {
    await putSharingPreferences(sql, member.userId, member.share);
    for (const presetKey of DEMO_CHALLENGES) {
      const participationId = await joinOnce(sql, member.userId, presetKey, joinedAt);
      if (!participationId) continue;
      outcome.participations += 1;
      if ((await evaluateParticipation(sql, participationId, now)) === 'completed') outcome.completed += 1;
    }
  }
  return outcome;
}

/** The evenings through the ingest core (the path Event Hubs batches take), as `npm run ingest:simulate` sends them. */
async function ingestEvenings(sql: Sql, evenings: readonly Date[], now: Date): Promise<number> {
  const settings = getSettings();
  const options = {
    runner: { id: 'demo-seed', kind: 'event' as const },
    // The demo is not the feed: it leaves the runner status and admission of the real one alone.
    statusEnabled: false,
    thresholds: admissionThresholds(settings),
    rejectLogMax: settings.INGEST_REJECT_LOG_MAX,
    now: () => now,
  };
  let hits = 0;
  for (const [index, startsAt] of evenings.entries()) {
    const events = trainingEvening({
      clubId: DEMO_CLUB.vereinsId,
      startsAt,
      seed: index + 1,
      firstHitId: DEMO_FIRST_HIT_ID + index * 10_000,
    });
    const messages: IncomingMessage[] = events.map((event, position) => ({
      body: event.body,
      properties: { sourceTopic: event.topic, sourceClubId: event.clubId },
      sequenceNumber: position,
      enqueuedAt: null,
      partitionId: null,
    }));
    const applied = await applyIngestBatch(sql, messages, options);
    hits += applied.hits;
  }
  return hits;
}

/**
 * The demo user's participation in the preset: joined on the first run; on later runs the one
 * they have, whatever its status (a demo user who left a challenge stays out of it).
 */
async function joinOnce(sql: Sql, userId: string, presetKey: string, joinedAt: Date): Promise<string | undefined> {
  const [challenge]: [{ id: string }?] = await sql`select id from challenge where preset_key = ${presetKey}`;
  if (!challenge) return undefined;
  const [existing]: [{ id: string }?] = await sql`
    select id from challenge_participation where challenge_id = ${challenge.id} and user_id = ${userId}`;
  if (existing) return existing.id;
  try {
    return (await joinChallenge(sql, userId, challenge.id, { clubId: DEMO_CLUB.id }, joinedAt)).id;
  } catch (error) {
    // A second `npm start` on the same database, seeding at the same moment, joined in between.
    if (!(error instanceof ConflictError)) throw error;
    const [joined]: [{ id: string }?] = await sql`
      select id from challenge_participation where challenge_id = ${challenge.id} and user_id = ${userId}`;
    if (!joined) throw error;
    return joined.id;
  }
}
