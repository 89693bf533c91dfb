import { getSql } from '../../shared/db/client';
import { syncKnownClubs } from '../../shared/clubMaster/knownClubSync';
import type { AdoptResult, CatalogPage } from '../../shared/clubMaster/schemas';
import { anyOf, readJson, type ProblemJson } from '../support/http';
import { bearer } from '../support/tokens';
import { useTestHost } from '../support/testHost';
import { createServiceClub, uniqueTag } from '../support/fixtures';

describe('club catalog and adopt through the local host', () => {
  let admin: Record<string, string>;
  const sql = () => getSql();

  const host = useTestHost();
  beforeAll(async () => {
    admin = await bearer('platform-admin-1', { roles: ['platform_admin'] });
  });

  const catalog = async (query: string) => {
    const response = await host.request('GET', `/api/admin/clubs?${query}`, { headers: admin });
    expect(response.status).toBe(200);
    return readJson<CatalogPage>(response);
  };
  const adopt = (vereinsId: string) => host.request('POST', '/api/admin/clubs/adopt', { headers: admin, json: { vereinsId } });
  const addHit = (vereinsId: string) => sql()`insert into club_data_hit (source_club_id) values (${vereinsId})`;

  describe('GET /api/admin/clubs', () => {
    const tag = uniqueTag();
    let activeClub: string;
    let inactiveClub: string;

    beforeAll(async () => {
      activeClub = await createServiceClub(sql(), { name: `Alpha ${tag}`, vereinsId: `${tag}-1` });
      inactiveClub = await createServiceClub(sql(), { name: `Bravo ${tag}`, vereinsId: `${tag}-2`, status: 'inactive' });
      const boxA = await createServiceClub(sql(), { name: `Box A ${tag}` });
      const boxB = await createServiceClub(sql(), { name: `Box B ${tag}` });
      await syncKnownClubs(sql(), boxA, [
        { vereinsId: `${tag}-1`, name: `Alpha ${tag} (as reported)` },
        { vereinsId: `${tag}-3`, name: `Charlie ${tag}` },
        { vereinsId: `${tag}-4`, name: `Delta ${tag} old name` },
        { vereinsId: `${tag}-5`, name: `Echo ${tag}` },
      ]);
      await syncKnownClubs(sql(), boxB, [{ vereinsId: `${tag}-4`, name: `Delta ${tag}` }]);
      // Echo disappears from box A's club software: no longer in the catalog.
      await syncKnownClubs(sql(), boxA, [
        { vereinsId: `${tag}-1`, name: `Alpha ${tag} (as reported)` },
        { vereinsId: `${tag}-3`, name: `Charlie ${tag}` },
        { vereinsId: `${tag}-4`, name: `Delta ${tag} old name` },
      ]);
      await syncKnownClubs(sql(), boxB, [{ vereinsId: `${tag}-4`, name: `Delta ${tag}` }]);
    });

    it('lists service clubs with their status and channel-only clubs as imported_only', async () => {
      const page = await catalog(`q=${tag}`);
      const summary = page.items.map((item) => [item.name, item.status, item.vereinsId, item.reportingBoxes]);
      expect(summary).toEqual([
        [`Alpha ${tag}`, 'active', `${tag}-1`, 1],
        [`Box A ${tag}`, 'active', null, 0],
        [`Box B ${tag}`, 'active', null, 0],
        [`Bravo ${tag}`, 'inactive', `${tag}-2`, 0],
        [`Charlie ${tag}`, 'imported_only', `${tag}-3`, 1],
        [`Delta ${tag}`, 'imported_only', `${tag}-4`, 2],
      ]);
      expect(page.items[0]?.clubId).toBe(activeClub);
      expect(page.items[3]?.clubId).toBe(inactiveClub);
      expect(page.items[4]?.clubId).toBeNull();
      expect(page.items[4]?.lastSeenAt).toEqual(expect.any(String));
      expect(page.total).toBe(6);
      expect(page.nextOffset).toBeNull();
    });

    it('searches by club number', async () => {
      const page = await catalog(`q=${tag}-3`);
      expect(page.items.map((item) => item.name)).toEqual([`Charlie ${tag}`]);
    });

    it('searches by name, case-insensitively', async () => {
      const page = await catalog(`q=${encodeURIComponent(`DELTA ${tag}`)}`);
      expect(page.items.map((item) => item.status)).toEqual(['imported_only']);
    });

    it('filters by status', async () => {
      const page = await catalog(`q=${tag}&status=imported_only`);
      expect(page.items.map((item) => item.vereinsId)).toEqual([`${tag}-3`, `${tag}-4`]);
    });

    it('pages with limit and offset', async () => {
      const first = await catalog(`q=${tag}&limit=4`);
      expect([first.items.length, first.total, first.nextOffset]).toEqual([4, 6, 4]);
      const second = await catalog(`q=${tag}&limit=4&offset=4`);
      expect([second.items.length, second.nextOffset]).toEqual([2, null]);
      expect(second.items[0]?.name).toBe(`Charlie ${tag}`);
      const beyond = await catalog(`q=${tag}&limit=4&offset=40`);
      expect([beyond.items.length, beyond.total, beyond.nextOffset]).toEqual([0, 6, null]);
    });

    it('is for platform admins only', async () => {
      expect((await host.request('GET', '/api/admin/clubs')).status).toBe(401);
      const user = await bearer('user-1', { roles: [] });
      expect((await host.request('GET', '/api/admin/clubs', { headers: user })).status).toBe(403);
    });

    it('rejects bad query parameters with 400', async () => {
      const response = await host.request('GET', '/api/admin/clubs?limit=500', { headers: admin });
      expect(response.status).toBe(400);
    });

    it.each(['%00', 'a%00b', '%1B', '%C2%85'])('rejects control characters in q (%s) with 400 naming query.q', async (q) => {
      const response = await host.request('GET', `/api/admin/clubs?q=${q}`, { headers: admin });
      expect(response.status).toBe(400);
      expect((await readJson<ProblemJson>(response)).errors).toEqual([{ path: 'query.q', message: 'must not contain control characters' }]);
    });

    it('lower-cases the search as PostgreSQL lower-cases names (İzmir)', async () => {
      const izmirTag = uniqueTag();
      const name = `İzmir Spor ${izmirTag}`;
      await createServiceClub(sql(), { name });
      const search = async (q: string) => (await catalog(`q=${encodeURIComponent(q)}`)).items.map((item) => item.name);
      // Searching with the name's own spelling always finds it, whatever the collation does to 'İ'.
      expect(await search(`İzmir Spor ${izmirTag}`)).toEqual([name]);
      expect(await search(`İZMİR SPOR ${izmirTag}`)).toEqual([name]);
      // 'izmir' finds it exactly when the database's lower() maps 'İ' to a plain 'i' (libc, ICU do; C does not).
      const [lowered] = await sql()<{ lowered: string }[]>`select lower(${'İzmir'}) as lowered`;
      expect(await search(`izmir spor ${izmirTag}`)).toEqual(lowered!.lowered === 'izmir' ? [name] : []);
    });
  });

  describe('POST /api/admin/clubs/adopt', () => {
    it('creates the service club (201) and answers the same club again (200)', async () => {
      const tag = uniqueTag();
      const box = await createServiceClub(sql());
      await syncKnownClubs(sql(), box, [{ vereinsId: tag, name: `Foxtrot ${tag}` }]);
      await addHit(tag);

      const first = await adopt(tag);
      expect(first.status).toBe(201);
      const created = await readJson<AdoptResult>(first);
      expect(created).toEqual({
        created: true,
        club: { id: anyOf(String), vereinsId: tag, name: `Foxtrot ${tag}`, status: 'active' },
      });
      const again = await adopt(tag);
      expect(again.status).toBe(200);
      expect(await readJson(again)).toEqual({ created: false, club: created.club });

      const page = await catalog(`q=${tag}`);
      expect(page.items.map((item) => [item.status, item.clubId])).toEqual([['active', created.club.id]]);
    });

    it('activates an inactive service club with that number, keeping its name', async () => {
      const tag = uniqueTag();
      const existing = await createServiceClub(sql(), { name: `Golf ${tag}`, vereinsId: tag, status: 'inactive' });
      const box = await createServiceClub(sql());
      await syncKnownClubs(sql(), box, [{ vereinsId: tag, name: `Golf ${tag} as reported` }]);
      await addHit(tag);
      const response = await adopt(tag);
      expect(response.status).toBe(200);
      expect(await readJson(response)).toEqual({
        created: false,
        club: { id: existing, vereinsId: tag, name: `Golf ${tag}`, status: 'active' },
      });
    });

    it.each([
      ['known to neither source', false, false],
      ['only in the score data', false, true],
      ['only reported by a box', true, false],
    ])('404 for a club number %s', async (_label, known, scored) => {
      const tag = uniqueTag();
      if (known) await syncKnownClubs(sql(), await createServiceClub(sql()), [{ vereinsId: tag, name: `Hotel ${tag}` }]);
      if (scored) await addHit(tag);
      const response = await adopt(tag);
      expect(response.status).toBe(404);
      const [club] = await sql()`select id from club where vereins_id = ${tag}`;
      expect(club).toBeUndefined();
    });

    it('404 when the only box report of the number is sourceDeleted', async () => {
      const tag = uniqueTag();
      const box = await createServiceClub(sql());
      await syncKnownClubs(sql(), box, [{ vereinsId: tag, name: `India ${tag}` }]);
      await syncKnownClubs(sql(), box, []);
      await addHit(tag);
      expect((await adopt(tag)).status).toBe(404);
    });

    it('validates the club number and needs a platform admin', async () => {
      expect((await adopt('not valid!')).status).toBe(400);
      const user = await bearer('user-2', { roles: [] });
      const response = await host.request('POST', '/api/admin/clubs/adopt', { headers: user, json: { vereinsId: '1' } });
      expect(response.status).toBe(403);
    });
  });
});
