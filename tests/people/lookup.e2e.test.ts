import { getSql } from '../../shared/db/client';
import { recordSignIn } from '../../shared/people/profileRepository';
import { unique } from '../challenges/support';
import type { ProblemJson } from '../support/http';
import { useTestHost } from '../support/testHost';
import { bearer } from '../support/tokens';

/** GET /api/admin/people: the portal's leader appointment finds people who have signed in. */

describe('GET /api/admin/people', () => {
  const host = useTestHost();
  const tag = unique('zq').replace(/-/g, '');
  const operator = () => bearer(unique('operator'), { roles: ['platform_admin'] });
  const search = async (query: string, limit?: number) => {
    const response = await host.request('GET', `/api/admin/people?query=${encodeURIComponent(query)}${limit ? `&limit=${limit}` : ''}`, {
      headers: await operator(),
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { items: { userId: string; displayName: string; initials: string; lastSeenAt: string }[] }).items;
  };

  beforeAll(async () => {
    const sql = getSql();
    await recordSignIn(sql, `${tag}-anna`, `Anna ${tag} Schütz`);
    await recordSignIn(sql, `${tag}-toni`, `Toni Berger`);
    await recordSignIn(sql, `member-${tag}-percent`, `100% Sure_Name`);
    await sql`update person_profile set last_seen_at = now() - interval '1 day' where user_id = ${`${tag}-toni`}`;
  });

  it('finds people by name or user id, whatever the case, prefix matches first', async () => {
    const byId = await search(tag.toUpperCase());
    expect(byId.map((person) => person.userId)).toEqual([`${tag}-anna`, `${tag}-toni`, `member-${tag}-percent`]);
    expect(byId[0]).toEqual({
      userId: `${tag}-anna`,
      displayName: `Anna ${tag} Schütz`,
      initials: 'AS',
      lastSeenAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) as unknown,
    });
    expect((await search(`berger`)).map((person) => person.userId)).toContain(`${tag}-toni`);
    expect(await search(`${tag}-anna`, 1)).toHaveLength(1);
    expect(await search(`${tag}`, 2)).toHaveLength(2);
  });

  it('reads % and _ as themselves, not as wildcards', async () => {
    expect((await search('0% sure_')).map((person) => person.userId)).toEqual([`member-${tag}-percent`]);
    expect((await search(`${tag}%toni`)).map((person) => person.userId)).toEqual([]);
  });

  it('is for platform operators only', async () => {
    const member = await host.request('GET', `/api/admin/people?query=${tag}`, { headers: await bearer(unique('member')) });
    expect(member.status).toBe(403);
    expect((await host.request('GET', `/api/admin/people?query=${tag}`)).status).toBe(401);
  });

  it('names a query or limit out of range', async () => {
    for (const [query, field] of [
      ['', 'query.query'],
      ['query=a', 'query.query'],
      [`query=${'x'.repeat(51)}`, 'query.query'],
      ['query=ab&limit=21', 'query.limit'],
      ['query=ab&limit=0', 'query.limit'],
    ] as const) {
      const response = await host.request('GET', `/api/admin/people?${query}`, { headers: await operator() });
      expect(response.status).toBe(400);
      expect(((await response.json()) as ProblemJson).errors?.map((error) => error.path)).toEqual([field]);
    }
  });
});
