import { randomUUID } from 'node:crypto';
import { computeStreak } from '../../shared/challenges/streak';
import { streakOf, warnStreaksAtRisk } from '../../shared/challenges/streakService';
import { getSql } from '../../shared/db/client';
import { saveContact } from '../../shared/notifications/contactRepository';
import { useTestHost } from '../support/testHost';
import { bearer } from '../support/tokens';
import { createClub, insertHits, linkShooter, unique, type Hit } from './support';

const DAY = 86_400_000;
// Sunday 16 March 2031, 12:00 in Berlin (CET): the last day of ISO week 2031-W11. Far from the
// clocks of other files, whose shots would otherwise be candidates of this file's sweeps.
const SUNDAY_NOON = new Date('2031-03-16T11:00:00.000Z');
const weeksBefore = (weeks: number, from = SUNDAY_NOON) => new Date(from.getTime() - weeks * 7 * DAY);
const shot = (at: Date): Hit => ({ at, value: 9 });

/** A member with a confirmed shooter record that has shots at the given instants. */
async function memberWithShots(shots: readonly Date[]) {
  const club = await createClub();
  const userId = unique('streaker');
  const shooterId = await linkShooter(club, userId);
  await insertHits(club.clubNumber, shooterId, shots.map(shot));
  return { userId, club, shooterId };
}

async function inboxOf(userId: string) {
  return getSql()<{ title: string; body: string; tone: string }[]>`
    select title, body, tone from notification where user_id = ${userId} order by created_at`;
}

describe('the streak from the member’s own shot data', () => {
  it('counts each training week once, however often ingest delivered its shots, and only through a confirmed link', async () => {
    const { userId, club, shooterId } = await memberWithShots([weeksBefore(2), weeksBefore(1), weeksBefore(1)]);
    // The same shots again, as a redelivered batch writes them.
    await insertHits(club.clubNumber, shooterId, [shot(weeksBefore(2)), shot(weeksBefore(1))]);
    expect(await streakOf(getSql(), userId, SUNDAY_NOON)).toMatchObject({
      weeks: 2,
      longestWeeks: 2,
      trainedThisWeek: false,
      hasShooterLink: true,
      weekEndsAt: '2031-03-16T23:00:00.000Z',
    });
  });

  it('ignores deleted shots and shots of a record the member only claimed', async () => {
    const { userId, club, shooterId } = await memberWithShots([weeksBefore(1)]);
    await getSql()`update club_data_hit set deleted_at = now() where source_club_id = ${club.clubNumber} and shooter_id = ${shooterId}`;
    // In another club, a claim the leader has not confirmed: its record's shots are not the member's yet.
    const other = await createClub();
    const claimed = unique('shooter');
    await getSql()`insert into club_data_shooter (source_club_id, source_record_id, display_name) values (${other.clubNumber}, ${claimed}, 'Claimed')`;
    await getSql()`insert into challenge_shooter_link (club_id, user_id, shooter_id) values (${other.clubId}, ${userId}, ${claimed})`;
    await insertHits(other.clubNumber, claimed, [shot(weeksBefore(1))]);
    expect(await streakOf(getSql(), userId, SUNDAY_NOON)).toMatchObject({ weeks: 0, hasShooterLink: true });
  });

  it('says when the member has no confirmed shooter record at all', async () => {
    expect(await streakOf(getSql(), unique('nobody'), SUNDAY_NOON)).toMatchObject({ weeks: 0, longestWeeks: 0, hasShooterLink: false });
  });
});

describe('the warning before a streak breaks (the challengeProgress sweep)', () => {
  it('writes one inbox entry on Sunday for a streak of two weeks or more not trained this week, in the member’s language', async () => {
    const atRisk = await memberWithShots([weeksBefore(2), weeksBefore(1)]);
    await saveContact(getSql(), atRisk.userId, { email: null, language: 'en' });
    const german = await memberWithShots([weeksBefore(3), weeksBefore(2), weeksBefore(1)]);
    const oneWeek = await memberWithShots([weeksBefore(1)]);
    const trained = await memberWithShots([weeksBefore(2), weeksBefore(1), new Date(SUNDAY_NOON.getTime() - 3 * DAY)]);

    expect(await warnStreaksAtRisk(getSql(), SUNDAY_NOON)).toBeGreaterThanOrEqual(2);
    expect(await inboxOf(atRisk.userId)).toEqual([
      {
        title: '2-week streak: no training this week yet',
        body: 'You have not trained this week yet. Without a session before Sunday midnight, this week uses up this month’s freeze.',
        tone: 'warning',
      },
    ]);
    expect((await inboxOf(german.userId)).map((entry) => entry.title)).toEqual(['Serie von 3 Wochen: noch kein Training diese Woche']);
    expect(await inboxOf(oneWeek.userId)).toEqual([]);
    expect(await inboxOf(trained.userId)).toEqual([]);
    // Inbox only: nothing is queued for email or push.
    const [queued] = await getSql()<{ count: number }[]>`
      select count(*)::int as count from notification_outbox where user_id = ${atRisk.userId}`;
    expect(queued?.count).toBe(0);

    // The sweep runs every 15 minutes: the next runs of the day write no second entry.
    await warnStreaksAtRisk(getSql(), new Date(SUNDAY_NOON.getTime() + 15 * 60_000));
    await Promise.all([
      warnStreaksAtRisk(getSql(), new Date(SUNDAY_NOON.getTime() + 30 * 60_000)),
      warnStreaksAtRisk(getSql(), SUNDAY_NOON),
    ]);
    expect(await inboxOf(atRisk.userId)).toHaveLength(1);
  });

  it('tells a member whose month’s freeze is spent that the streak ends', async () => {
    // Trained W08 and W09; W10 (Thursday 6 March) missed and covered by March's freeze; W11 (March too) not trained yet.
    const member = await memberWithShots([weeksBefore(3), weeksBefore(2)]);
    expect(await streakOf(getSql(), member.userId, SUNDAY_NOON)).toMatchObject({
      weeks: 2,
      frozenWeeks: ['2031-W10'],
      freezeAvailable: false,
      atRisk: true,
    });
    await warnStreaksAtRisk(getSql(), SUNDAY_NOON);
    expect(await inboxOf(member.userId)).toEqual([
      {
        title: 'Serie von 2 Wochen: noch kein Training diese Woche',
        body: 'Du hast diese Woche noch nicht trainiert. Ohne Training bis Sonntag, 24 Uhr, endet deine Serie.',
        tone: 'warning',
      },
    ]);
  });

  it('waits for Sunday, 10:00 in Berlin', async () => {
    const member = await memberWithShots([weeksBefore(2), weeksBefore(1)].map((at) => new Date(at.getTime() + 7 * DAY)));
    const nextSunday = new Date(SUNDAY_NOON.getTime() + 7 * DAY);
    expect(await warnStreaksAtRisk(getSql(), new Date(nextSunday.getTime() - DAY))).toBe(0); // Saturday
    expect(await warnStreaksAtRisk(getSql(), new Date(nextSunday.getTime() - 3 * 3_600_000))).toBe(0); // Sunday 09:00
    expect(await inboxOf(member.userId)).toEqual([]);
    await warnStreaksAtRisk(getSql(), nextSunday);
    expect(await inboxOf(member.userId)).toHaveLength(1);
  });
});

describe('the streak warning in the inbox', () => {
  const host = useTestHost();

  async function inboxReadIn(userId: string, language: string) {
    const response = await host.request('GET', '/api/notifications', {
      headers: { ...(await bearer(userId)), 'accept-language': language },
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { items: { title: string; body: string | null }[] }).items;
  }

  it('reads in the language the reader asks for, whatever language the member stored', async () => {
    const member = await memberWithShots([weeksBefore(2), weeksBefore(1)]);
    await saveContact(getSql(), member.userId, { email: null, language: 'en' });
    await warnStreaksAtRisk(getSql(), SUNDAY_NOON);

    expect(await inboxReadIn(member.userId, 'de')).toEqual([
      expect.objectContaining({
        title: 'Serie von 2 Wochen: noch kein Training diese Woche',
        body: 'Du hast diese Woche noch nicht trainiert. Ohne Training bis Sonntag, 24 Uhr, verbraucht die Woche den Joker dieses Monats.',
      }),
    ]);
    expect(await inboxReadIn(member.userId, 'en')).toEqual([
      expect.objectContaining({ title: '2-week streak: no training this week yet' }),
    ]);
  });
});

describe('GET /api/me/streak', () => {
  const host = useTestHost();

  it('answers the caller’s streak, never cached', async () => {
    const response = await host.request('GET', '/api/me/streak', { headers: await bearer(`user-${randomUUID()}`) });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = (await response.json()) as { weekEndsAt: string };
    // The coming Monday, 00:00 in Berlin: 22:00 or 23:00 UTC on a Sunday.
    expect(new Date(body.weekEndsAt).getUTCDay()).toBe(0);
    expect(body.weekEndsAt).toMatch(/^\d{4}-\d{2}-\d{2}T2[23]:00:00\.000Z$/);
    // A caller who never trained: the streak of no training days (its values pinned in streak.unit.test.ts).
    expect(body).toEqual({ ...computeStreak([], new Date()), weekEndsAt: body.weekEndsAt, hasShooterLink: false });
  });

  it('answers 401 without a token', async () => {
    expect((await host.request('GET', '/api/me/streak')).status).toBe(401);
  });
});
