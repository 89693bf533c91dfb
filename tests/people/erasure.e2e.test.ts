import { randomBytes } from 'node:crypto';
import { getSql } from '../../shared/db/client';
import { appendXp } from '../../shared/challenges/xpLedgerRepository';
import { ERASED_COLUMNS, SKIPPED_COLUMNS } from '../../shared/people/erasure';
import { recordSignIn } from '../../shared/people/profileRepository';
import { addMember, createClub, earnBadge, insertHits, makeChallenge, unique } from '../challenges/support';
import type { ProblemJson } from '../support/http';
import { useTestHost } from '../support/testHost';
import { bearer } from '../support/tokens';

/** "Forget me": DELETE /api/me and the operators' DELETE /api/admin/people/{userId} (docs/clubs.md, Personal data). */

const sql = () => getSql();

/**
 * A person with a row in every table that holds a user id: profile, contact, inbox and deliveries,
 * push, memberships, a leader's invitations and training plan, attempts, badges, XP, a personal
 * template, a club challenge they wrote, a link they decided for `mate`, and their own link.
 */
async function personWithEverything(userId: string, mate: string): Promise<{ clubId: string; clubNumber: string; challengeId: string }> {
  const db = sql();
  const club = await createClub();
  await recordSignIn(db, userId, `Name ${userId}`);
  await addMember(club.clubId, userId, 'leader');
  await addMember(club.clubId, mate);
  await db`insert into user_contact (user_id, email, language) values (${userId}, ${`${userId}@example.org`}, 'en')`;
  await db`
    insert into user_contact_confirmation (user_id, email, token_hash, expires_at)
    values (${userId}, ${`new-${userId}@example.org`}, ${randomBytes(32)}, now() + interval '1 day')`;
  await db`insert into user_settings (user_id, notifications) values (${userId}, ${db.json({ version: 1 })})`;
  const [entry] = await db<{ id: string }[]>`
    insert into notification (user_id, title, kind, source) values (${userId}, 'For them', 'member', 'test') returning id`;
  const [outbox] = await db<{ id: number }[]>`
    insert into notification_outbox (notification_id, user_id, channel, deliver_after, title, tone)
    values (${entry!.id}, ${userId}, 'email', now() + interval '1 hour', 'For them', 'info') returning id`;
  await db`
    insert into notification_delivery_log (outbox_id, notification_id, user_id, channel, attempt, outcome)
    values (${outbox!.id}, ${entry!.id}, ${userId}, 'email', 1, 'retrying')`;
  await db`
    insert into push_registration (user_id, platform, address, p256dh, auth)
    values (${userId}, 'webpush', ${`https://push.example.org/${unique('subscription')}`}, 'p256dh', 'auth')`;
  await db`
    insert into club_invitation (club_id, code_hash, created_by, expires_at)
    values (${club.clubId}, ${randomBytes(32)}, ${userId}, now() + interval '7 days')`;
  await db`
    insert into club_invitation (club_id, code_hash, created_by, expires_at, used_at, used_by)
    values (${club.clubId}, ${randomBytes(32)}, ${mate}, now() + interval '7 days', now(), ${userId})`;
  await db`
    insert into club_training_plan (club_id, time_zone, evenings, updated_by)
    values (${club.clubId}, 'Europe/Berlin', ${db.json([{ weekday: 'monday', start: '18:00', end: '20:00', endsNextDay: false }])}, ${userId})`;
  const participationId = await earnBadge(userId, club.clubId, { shareWithinClub: true, shareGlobally: true }, unique('badge'));
  await appendXp(db, { userId, amount: 120, sourceKind: 'challenge', sourceId: participationId });
  const [season] = await db<{ id: string }[]>`
    insert into xp_season (name, starts_at, ends_at) values ('Past', now() - interval '60 days', now() - interval '30 days') returning id`;
  await db`insert into xp_season_total (season_id, user_id, xp) values (${season!.id}, ${userId}, 120)`;
  await db`insert into challenge_badge_preference (user_id, show_private_badges) values (${userId}, true)`;
  const { id: challengeId } = await makeChallenge({ scope: 'club', clubId: club.clubId, createdBy: userId });
  await db`insert into challenge_end_reminder (challenge_id, user_id) values (${challengeId}, ${userId})`;
  await makeChallenge({ scope: 'personal', personalizedForUserId: userId, createdBy: 'personalization' });
  await db`insert into challenge_streak_warning (user_id, iso_week) values (${userId}, '2026-W47')`;
  await db`insert into challenge_shooter_link (club_id, user_id, shooter_id, status) values (${club.clubId}, ${userId}, 'own', 'pending')`;
  await db`
    insert into challenge_shooter_link (club_id, user_id, shooter_id, status, decided_at, decided_by)
    values (${club.clubId}, ${mate}, 'mates', 'confirmed', now(), ${userId})`;
  await insertHits(club.clubNumber, 'own', [{ at: new Date(), value: 9.5, series: 1 }]);
  return { ...club, challengeId };
}

/** How many rows of each listed column name the person. */
async function rowsNaming(userId: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const { table, column } of ERASED_COLUMNS) {
    const [row] = await sql()<{ count: number }[]>`select count(*)::int as count from ${sql()(table)} where ${sql()(column)} = ${userId}`;
    counts[`${table}.${column}`] = row!.count;
  }
  return counts;
}

describe('the list of what an erasure removes', () => {
  it('names every column of the database that holds a person’s id, erased or kept with a reason', async () => {
    const columns = await sql()<{ table: string; column: string }[]>`
      select c.table_name as table, c.column_name as column
      from information_schema.columns c
      join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name and t.table_type = 'BASE TABLE'
      where c.table_schema = current_schema()
        and (c.column_name ~ '(user|owner|member|person|subject|actor|leader)' or c.column_name ~ '(^|_)(by|sub)(_|$)')
      order by 1, 2`;
    const listed = new Set([...ERASED_COLUMNS, ...SKIPPED_COLUMNS].map(({ table, column }) => `${table}.${column}`));
    const found = columns.map(({ table, column }) => `${table}.${column}`);
    expect({ unlisted: found.filter((name) => !listed.has(name)) }).toEqual({ unlisted: [] });
    // And no entry of the list names a column that is gone.
    expect({ stale: [...listed].filter((name) => !found.includes(name)) }).toEqual({ stale: [] });
    expect(ERASED_COLUMNS.some(({ table }) => table.startsWith('club_data'))).toBe(false);
    for (const kept of SKIPPED_COLUMNS) expect(kept.reason.length).toBeGreaterThan(10);
  });
});

describe('DELETE /api/me', () => {
  const host = useTestHost();

  it('erases every row of the caller, keeps another person’s and the club’s, and answers 204 again when repeated', async () => {
    const person = unique('forget');
    const other = unique('keep');
    const mate = unique('mate');
    const club = await personWithEverything(person, mate);
    await personWithEverything(other, unique('mate'));
    const before = await rowsNaming(person);
    // The fixture fills every table the erasure lists, so the check below covers each.
    expect(Object.entries(before).filter(([, count]) => count === 0)).toEqual([]);
    const otherBefore = await rowsNaming(other);
    const hitsBefore = await sql()`select count(*)::int as count from club_data_hit where source_club_id = ${club.clubNumber}`;

    const headers = await bearer(person, { claims: { name: 'Forget Me' } });
    const erased = await host.request('DELETE', '/api/me', { headers });
    expect(erased.status).toBe(204);
    expect(Object.entries(await rowsNaming(person)).filter(([, count]) => count > 0)).toEqual([]);
    // The answered request did not make the profile again from the token's sign-in.
    expect(await sql()`select 1 from person_profile where user_id = ${person}`).toHaveLength(0);
    expect(await rowsNaming(other)).toEqual(otherBefore);
    // What stays is the club's: its challenge, the mate's confirmed link, the plan, the shot data.
    expect(await sql()`select created_by from challenge where id = ${club.challengeId}`).toEqual([{ created_by: null }]);
    expect(await sql()`select decided_by, status from challenge_shooter_link where user_id = ${mate}`).toEqual([
      { decided_by: null, status: 'confirmed' },
    ]);
    expect(await sql()`select updated_by from club_training_plan where club_id = ${club.clubId}`).toEqual([{ updated_by: null }]);
    expect(await sql()`select count(*)::int as count from club_data_hit where source_club_id = ${club.clubNumber}`).toEqual(hitsBefore);
    expect(await sql()`select user_id from club_membership where club_id = ${club.clubId}`).toEqual([{ user_id: mate }]);

    expect((await host.request('DELETE', '/api/me', { headers })).status).toBe(204);
    // A later sign-in starts afresh, as a first one does: here one without a name.
    const fresh = await host.request('GET', '/api/me/profile', { headers: await bearer(person, { claims: {} }) });
    expect(await fresh.json()).toEqual({ displayName: null, initials: null, language: 'de', nameFromSignIn: true });
  });

  it('answers 401 without a token and erases nothing', async () => {
    const person = unique('anon');
    await recordSignIn(sql(), person, 'Still Here');
    expect((await host.request('DELETE', '/api/me')).status).toBe(401);
    expect(await sql()`select display_name from person_profile where user_id = ${person}`).toEqual([{ display_name: 'Still Here' }]);
  });
});

describe('DELETE /api/admin/people/{userId}', () => {
  const host = useTestHost();
  const operator = () => bearer(unique('operator'), { roles: ['platform_admin'] });
  const erase = async (userId: string, headers?: Record<string, string>) =>
    host.request('DELETE', `/api/admin/people/${encodeURIComponent(userId)}`, { headers: headers ?? (await operator()) });

  it('erases the person for an operator, then tells that nothing is stored about them', async () => {
    const person = unique('letter');
    const other = unique('keep');
    await personWithEverything(person, unique('mate'));
    await personWithEverything(other, unique('mate'));
    const otherBefore = await rowsNaming(other);
    expect((await erase(person)).status).toBe(204);
    expect(Object.entries(await rowsNaming(person)).filter(([, count]) => count > 0)).toEqual([]);
    expect(await rowsNaming(other)).toEqual(otherBefore);
    const again = await erase(person);
    expect(again.status).toBe(404);
    expect(again.headers.get('content-type')).toContain('application/problem+json');
    expect(((await again.json()) as ProblemJson).code).toBe('person_not_found');
  });

  it('answers 404 for a user id nobody has, and 400 naming params.userId for one no token can carry', async () => {
    expect((await erase(unique('nobody'))).status).toBe(404);
    const bad = await erase('bad\u0007id');
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as ProblemJson).errors?.map((error) => error.path)).toEqual(['params.userId']);
  });

  it('is for platform operators only: a member is refused with 403, a request without a token with 401, and nothing changes', async () => {
    const person = unique('target');
    await recordSignIn(sql(), person, 'Target Person');
    const { clubId } = await createClub();
    const leader = unique('leader');
    await addMember(clubId, leader, 'leader');
    await addMember(clubId, person);
    expect((await erase(person, await bearer(leader))).status).toBe(403);
    expect((await erase(person, await bearer(unique('member'), { roles: ['ops_admin'] }))).status).toBe(403);
    expect((await host.request('DELETE', `/api/admin/people/${person}`)).status).toBe(401);
    expect(await sql()`select display_name from person_profile where user_id = ${person}`).toEqual([{ display_name: 'Target Person' }]);
    expect(await sql()`select role from club_membership where user_id = ${person}`).toEqual([{ role: 'member' }]);
  });
});
