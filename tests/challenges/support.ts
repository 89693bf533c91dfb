import { randomUUID } from 'node:crypto';
import { awardBadge } from '../../shared/challenges/badgeRepository';
import { upsertChallenge } from '../../shared/challenges/challengeRepository';
import type { ChallengeView } from '../../shared/challenges/model';
import { joinChallenge, putSharingPreferences } from '../../shared/challenges/participationRepository';
import { getSql } from '../../shared/db/client';
import { challengeDraft, type ChallengeDraftOverrides } from '../support/challengeDraft';
import { addMember as addClubMember } from '../support/fixtures';

export const unique = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;

/**
 * A service club with a club number (vereinsId) of its own. Test files run in parallel workers on
 * one database, so the number is drawn at random and drawn again if another file holds it.
 */
export async function createClub(): Promise<{ clubId: string; clubNumber: string }> {
  const clubId = unique('club');
  for (;;) {
    const clubNumber = String(70_000 + Math.floor(Math.random() * 900_000));
    const inserted = await getSql()`
      insert into club (id, name, vereins_id) values (${clubId}, ${clubId}, ${clubNumber})
      on conflict (vereins_id) do nothing
      returning id`;
    if (inserted.length === 1) return { clubId, clubNumber };
  }
}

export async function addMember(clubId: string, userId: string, role: 'member' | 'leader' = 'member'): Promise<void> {
  await addClubMember(getSql(), clubId, userId, role);
}

/** A shooter record in the club's data and a confirmed link of the user to it. */
export async function linkShooter(
  club: { clubId: string; clubNumber: string },
  userId: string,
  shooterId = unique('shooter'),
): Promise<string> {
  const sql = getSql();
  await sql`insert into club_data_shooter (source_club_id, source_record_id, display_name) values (${club.clubNumber}, ${shooterId}, 'Test Shooter')`;
  await sql`insert into challenge_shooter_link (club_id, user_id, shooter_id, status, decided_at) values (${club.clubId}, ${userId}, ${shooterId}, 'confirmed', now())`;
  return shooterId;
}

export interface Hit {
  at: Date;
  value: number;
  series?: number;
  discipline?: string;
}

/** Shots as the ingest path writes them. */
export async function insertHits(clubNumber: string, shooterId: string, hits: readonly Hit[]): Promise<void> {
  const sql = getSql();
  for (const hit of hits) {
    await sql`
      insert into club_data_hit (source_club_id, source_record_id, shooter_id, discipline, series, shot_no, value, shot_at)
      values (${clubNumber}, ${randomUUID()}, ${shooterId}, ${hit.discipline ?? 'LG'}, ${hit.series ?? 1}, 1, ${hit.value}, ${hit.at})`;
  }
}

export function hitsOn(day: Date, count: number, value: number, series = 1): Hit[] {
  return Array.from({ length: count }, (_, index) => ({ at: new Date(day.getTime() + index * 60_000), value, series }));
}

export async function makeChallenge(overrides: ChallengeDraftOverrides = {}): Promise<ChallengeView> {
  return upsertChallenge(getSql(), challengeDraft({ title: unique('Challenge'), ...overrides }));
}

export async function ensureBadge(key: string, quality = 'gold'): Promise<void> {
  await getSql()`
    insert into challenge_badge (key, name, icon, colour, description, quality)
    values (${key}, ${`Badge ${key}`}, 'star', '#d4af37', 'test badge', ${quality}) on conflict (key) do nothing`;
}

/**
 * A completed participation of `owner` in a global challenge, booked on `clubId`, with the
 * sharing flags given, and the badge `badgeKey` awarded for it; the participation's id.
 */
export async function earnBadge(
  owner: string,
  clubId: string,
  share: { shareWithinClub: boolean; shareGlobally: boolean },
  badgeKey: string,
  challengeTitle = badgeKey,
): Promise<string> {
  const challenge = await makeChallenge({ title: challengeTitle });
  await putSharingPreferences(getSql(), owner, share);
  const participation = await joinChallenge(getSql(), owner, challenge.id, { clubId });
  await getSql()`update challenge_participation set status = 'completed', finished_at = now() where id = ${participation.id}`;
  await ensureBadge(badgeKey);
  await awardBadge(getSql(), { userId: owner, badgeKey, challengeId: challenge.id, participationId: participation.id });
  return participation.id;
}
