import { randomUUID } from 'node:crypto';
import { getSql } from '../../shared/db/client';
import { addMember, createClub, unique } from '../challenges/support';
import type { ProblemJson } from '../support/http';
import { useTestHost } from '../support/testHost';
import { bearer, type TokenOptions } from '../support/tokens';

/** A person's profile: made from the sign-in, renamed by its owner, the language shared with the contact. */

describe('GET and PUT /api/me/profile', () => {
  const host = useTestHost();
  const profile = async (headers: Record<string, string>) => {
    const response = await host.request('GET', '/api/me/profile', { headers });
    expect(response.status).toBe(200);
    return response.json() as Promise<Record<string, unknown>>;
  };
  const stored = async (userId: string) =>
    (
      await getSql()<{ displayName: string | null; lastSeenAt: Date }[]>`
      select display_name as "displayName", last_seen_at as "lastSeenAt" from person_profile where user_id = ${userId}`
    )[0];
  const as = (userId: string, claims: TokenOptions['claims'], roles: string[] = []) => bearer(userId, { claims, roles });

  it('is made on first use from the sign-in’s name, in German until the member chooses', async () => {
    const user = unique('anna');
    expect(await profile(await as(user, { name: 'Anna Maria Schütz' }))).toEqual({
      displayName: 'Anna Maria Schütz',
      initials: 'AS',
      language: 'de',
      nameFromSignIn: true,
    });
  });

  it('falls back to given and family name, the username before its @, and else stores no name at all', async () => {
    expect(await profile(await as(unique('u'), { given_name: 'Toni', family_name: 'Berger' }))).toMatchObject({
      displayName: 'Toni Berger',
    });
    expect(await profile(await as(unique('u'), { preferred_username: 'jo.weber@verein.de' }))).toMatchObject({ displayName: 'jo.weber' });
    // No invented name, in no language: the reader's client shows its own word for a member.
    const nameless = unique('u');
    expect(await profile(await as(nameless, {}))).toEqual({ displayName: null, initials: null, language: 'de', nameFromSignIn: true });
    expect(await stored(nameless)).toMatchObject({ displayName: null });
    // A later sign-in that brings a name fills it in.
    expect(await profile(await as(nameless, { name: 'Nora Nachname' }, ['ops_admin']))).toMatchObject({
      displayName: 'Nora Nachname',
      initials: 'NN',
    });
  });

  it('keeps a nameless person nameless on every list that names them, and the operators find them by id', async () => {
    const nameless = unique('nameless');
    await profile(await as(nameless, {}));
    const { clubId } = await createClub();
    const leader = unique('leader');
    await addMember(clubId, leader, 'leader');
    await addMember(clubId, nameless);
    const leaderHeaders = await as(leader, { name: 'Lea Leiterin' });
    const members = await host.request('GET', `/api/clubs/${clubId}/members`, { headers: leaderHeaders });
    expect(members.status).toBe(200);
    const items = ((await members.json()) as { items: { userId: string; displayName: unknown; initials: unknown }[] }).items;
    expect(items.find((item) => item.userId === nameless)).toMatchObject({ displayName: null, initials: null });
    const people = await host.request('GET', `/api/admin/people?query=${encodeURIComponent(nameless)}`, {
      headers: await as(unique('operator'), {}, ['platform_admin']),
    });
    expect(people.status).toBe(200);
    expect(((await people.json()) as { items: unknown[] }).items).toEqual([
      { userId: nameless, displayName: null, initials: null, lastSeenAt: expect.any(String) as unknown },
    ]);
  });

  it('is written once per sign-in, not on every request, and follows a new sign-in’s name', async () => {
    const user = unique('toni');
    const headers = await as(user, { name: 'Toni Berger' });
    await profile(headers);
    // Written behind the service's back: a request with the same token writes nothing, so it stays.
    await getSql()`update person_profile set display_name = 'Changed Elsewhere' where user_id = ${user}`;
    expect(await profile(headers)).toMatchObject({ displayName: 'Changed Elsewhere' });
    expect((await host.request('GET', '/api/me', { headers })).status).toBe(200);
    expect((await stored(user))?.displayName).toBe('Changed Elsewhere');
    // A new sign-in (a new token) brings its name along while the member has not chosen one.
    const before = (await stored(user))?.lastSeenAt;
    expect(await profile(await as(user, { name: 'Toni Berger-Huber' }, ['ops_admin']))).toMatchObject({ displayName: 'Toni Berger-Huber' });
    expect((await stored(user))?.lastSeenAt.getTime()).toBeGreaterThanOrEqual(before?.getTime() ?? Infinity);
    // A sign-in without a name keeps the one the profile holds.
    expect(await profile(await as(user, {}, ['costs_admin']))).toMatchObject({ displayName: 'Toni Berger-Huber' });
  });

  it('is made by any signed-in request, and by none that was refused', async () => {
    const member = unique('member');
    const refused = await host.request('GET', '/api/admin/people?query=ab', { headers: await as(member, { name: 'Refused Rita' }) });
    expect(refused.status).toBe(403);
    expect(await stored(member)).toBeUndefined();
    // Past the guard and validation, refused by the route itself: no entry of that id is the member's.
    const missing = await host.request('PATCH', `/api/notifications/${randomUUID()}/read`, {
      headers: await as(member, { name: 'Refused Rita' }),
    });
    expect(missing.status).toBe(404);
    expect(await stored(member)).toBeUndefined();
    const { clubId } = await createClub();
    await addMember(clubId, member);
    expect((await host.request('GET', '/api/clubs/mine', { headers: await as(member, { name: 'Rita Roth' }) })).status).toBe(200);
    expect((await stored(member))?.displayName).toBe('Rita Roth');
  });

  it('keeps the name the member chose over later sign-ins, and shares the language with the contact settings', async () => {
    const user = unique('chooser');
    const headers = await as(user, { name: 'Sign In Name' });
    const put = await host.request('PUT', '/api/me/profile', { headers, json: { displayName: '  Jörg Östermann ', language: 'en' } });
    expect(put.status).toBe(200);
    expect(await put.json()).toEqual({ displayName: 'Jörg Östermann', initials: 'JÖ', language: 'en', nameFromSignIn: false });
    const contact = (await (await host.request('GET', '/api/user/contact', { headers })).json()) as { language: string };
    expect(contact.language).toBe('en');
    // The language alone leaves the name as it is; a new sign-in's name no longer replaces it.
    expect(await (await host.request('PUT', '/api/me/profile', { headers, json: { language: 'de' } })).json()).toMatchObject({
      displayName: 'Jörg Östermann',
      language: 'de',
    });
    expect(await profile(await as(user, { name: 'Another Sign In' }, ['ops_admin']))).toMatchObject({
      displayName: 'Jörg Östermann',
      nameFromSignIn: false,
    });
  });

  it('refuses a name that is empty, too long or would display as something else, naming body.displayName and changing nothing', async () => {
    const user = unique('careful');
    const headers = await as(user, { name: 'Careful Carl' });
    await profile(headers);
    for (const displayName of ['   ', 'x'.repeat(51), 'Anna\nSchütz', 'Anna\u2028Schütz', 'Anna\u202eSchütz', 'An\u200bna', 42, null]) {
      const response = await host.request('PUT', '/api/me/profile', { headers, json: { displayName, language: 'en' } });
      expect(response.status).toBe(400);
      expect(response.headers.get('content-type')).toContain('application/problem+json');
      expect(((await response.json()) as ProblemJson).errors?.map((error) => error.path)).toEqual(['body.displayName']);
    }
    const language = await host.request('PUT', '/api/me/profile', { headers, json: { language: 'fr' } });
    expect(((await language.json()) as ProblemJson).errors?.map((error) => error.path)).toEqual(['body.language']);
    const unknown = await host.request('PUT', '/api/me/profile', { headers, json: { userId: 'someone-else' } });
    expect(unknown.status).toBe(400);
    expect(await profile(headers)).toEqual({ displayName: 'Careful Carl', initials: 'CC', language: 'de', nameFromSignIn: true });
  });

  it('answers 401 without a token', async () => {
    expect((await host.request('GET', '/api/me/profile')).status).toBe(401);
    expect((await host.request('PUT', '/api/me/profile', { json: { displayName: 'X' } })).status).toBe(401);
  });
});
