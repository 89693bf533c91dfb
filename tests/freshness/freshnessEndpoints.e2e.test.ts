import { getSql } from '../../shared/db/client';
import { generateEdgeToken } from '../../shared/clubMaster/edgeTokens';
import { bearer } from '../support/tokens';
import { useTestHost } from '../support/testHost';
import { addHit, createFreshnessClub } from './fixtures';
import { addEdgeToken } from '../support/fixtures';

const sql = () => getSql();
const DAY = 24 * 3600 * 1000;
// Whatever the real date: a month ago lies before any due evening (stale), a minute ago after it (ok).
const monthAgo = () => new Date(Date.now() - 30 * DAY);
const minuteAgo = () => new Date(Date.now() - 60_000);

interface Entry {
  clubId: string;
  status: string;
  planSource: string;
  hint: { code: string; message: string } | null;
  lastStarterlistSeenAt: string | null;
  edgeTokenLastUsedAt: string | null;
  lastArrivalAt: string | null;
  evening: { start: string; end: string };
  since: string | null;
}

const list = (id: string) => ({
  id,
  name: 'Luftgewehr Abend',
  date: '2026-11-18',
  discipline: 'Luftgewehr 10 m',
  laneCount: 12,
  startersCount: 24,
});

describe('freshness endpoints through the local host', () => {
  const host = useTestHost();

  const push = (token: string, json: unknown) =>
    host.request('POST', '/api/edge/starterlists', { headers: { authorization: `Bearer ${token}` }, json });

  describe('POST /api/edge/starterlists', () => {
    it('records the lists and lastStarterlistSeenAt of the token’s club', async () => {
      const club = await createFreshnessClub(sql());
      const token = await addEdgeToken(sql(), club.clubId);
      const first = await push(token, { starterlists: [list('A-1'), list('A-2')] });
      expect(first.status).toBe(200);
      const body = (await first.json()) as { received: number; added: number; lastStarterlistSeenAt: string };
      expect(body).toMatchObject({ received: 2, added: 2 });
      const again = await push(token, { starterlists: [{ ...list('A-2'), startersCount: 26 }] });
      expect(await again.json()).toMatchObject({ received: 1, added: 0 });
      const rows = await sql()`select list_id, starters_count from edge_starterlist where club_id = ${club.clubId} order by list_id`;
      expect(rows).toEqual([
        { list_id: 'A-1', starters_count: 24 },
        { list_id: 'A-2', starters_count: 26 },
      ]);
      const [signal] = await sql()`select last_starterlist_seen_at from edge_box_signal where club_id = ${club.clubId}`;
      expect(signal!['last_starterlist_seen_at']).toBeInstanceOf(Date);
    });

    it('an empty push keeps lastStarterlistSeenAt and records the box check', async () => {
      const club = await createFreshnessClub(sql());
      const token = await addEdgeToken(sql(), club.clubId);
      await push(token, { starterlists: [list('B-1')] });
      const [before] = await sql()`select last_starterlist_seen_at from edge_box_signal where club_id = ${club.clubId}`;
      const response = await push(token, {
        starterlists: [],
        boxCheck: { checkedAt: '2026-11-19T05:00:00Z', eveningStart: '2026-11-18T17:00:00Z', hitsAfterEvening: true },
      });
      expect(response.status).toBe(200);
      const [after] = await sql()`
        select last_starterlist_seen_at, box_check_at, box_check_hits_after from edge_box_signal where club_id = ${club.clubId}`;
      expect(after).toEqual({
        last_starterlist_seen_at: before!['last_starterlist_seen_at'] as Date,
        box_check_at: new Date('2026-11-19T05:00:00Z'),
        box_check_hits_after: true,
      });
    });

    it("accepts the box's consent with the push and refuses a malformed one, naming the field", async () => {
      const club = await createFreshnessClub(sql());
      const token = await addEdgeToken(sql(), club.clubId);
      const ok = await push(token, { starterlists: [list('D-1')], consent: { state: 'REVOKED', changedAt: '2026-11-18T20:00:00Z' } });
      expect(ok.status).toBe(200);
      const bad = await push(token, { starterlists: [list('D-2')], consent: { state: 'GRANTED', changedAt: 'yesterday' } });
      expect(bad.status).toBe(400);
      const problem = (await bad.json()) as { errors: { path: string }[] };
      expect(problem.errors.map((error) => error.path)).toContain('body.consent.changedAt');
      expect(await sql()`select list_id from edge_starterlist where club_id = ${club.clubId}`).toEqual([{ list_id: 'D-1' }]);
    });

    it.each<[string, () => Promise<Record<string, string>>]>([
      ['no credential', () => Promise.resolve({})],
      ['an unknown edge token', () => Promise.resolve({ authorization: `Bearer ${generateEdgeToken()}` })],
      ['a platform admin JWT', () => bearer('admin-1', { roles: ['platform_admin'] })],
    ])('401 for %s', async (_label, headers) => {
      const response = await host.request('POST', '/api/edge/starterlists', { headers: await headers(), json: { starterlists: [] } });
      expect(response.status).toBe(401);
    });

    it.each<[string, unknown, string]>([
      ['personal data in a list', { starterlists: [{ ...list('C-1'), starters: ['Max Mustermann'] }] }, 'body.starterlists.0.starters'],
      ['a name with a zero-width joiner', { starterlists: [{ ...list('C-1'), name: 'Abend\u200dliste' }] }, 'body.starterlists.0.name'],
      [
        'a discipline with a bidi override',
        { starterlists: [{ ...list('C-1'), discipline: '\u202eLuftgewehr' }] },
        'body.starterlists.0.discipline',
      ],
    ])('400 for %s, nothing stored', async (_label, json, path) => {
      const club = await createFreshnessClub(sql());
      const token = await addEdgeToken(sql(), club.clubId);
      const response = await push(token, json);
      expect(response.status).toBe(400);
      const problem = (await response.json()) as { errors: { path: string }[] };
      expect(problem.errors.map((error) => error.path)).toContain(path);
      expect(await sql()`select 1 from edge_starterlist where club_id = ${club.clubId}`).toHaveLength(0);
      expect(await sql()`select 1 from edge_box_signal where club_id = ${club.clubId}`).toHaveLength(0);
    });

    const boxCheck = (overrides: Record<string, string>) => ({
      starterlists: [list('D-1')],
      boxCheck: { checkedAt: minuteAgo().toISOString(), eveningStart: monthAgo().toISOString(), hitsAfterEvening: true, ...overrides },
    });

    it.each<[string, Record<string, string>, string, string]>([
      [
        'a checkedAt that does not exist (31 February)',
        { checkedAt: '2027-02-31T05:00:00Z' },
        'body.boxCheck.checkedAt',
        'must be a date and time that exist (2027-02-31 05:00:00 does not)',
      ],
      [
        'a checkedAt in 2999',
        { checkedAt: '2999-01-01T05:00:00Z' },
        'body.boxCheck.checkedAt',
        'must lie from 2000-01-01T00:00:00Z up to before 2100-01-01T00:00:00Z',
      ],
      [
        'a checkedAt an hour ahead of the service clock',
        { checkedAt: new Date(Date.now() + 3600_000).toISOString() },
        'body.boxCheck.checkedAt',
        'must not be more than 5 minutes in the future',
      ],
      [
        'an eveningStart that does not exist (30 February)',
        { eveningStart: '2026-02-30T17:00:00Z' },
        'body.boxCheck.eveningStart',
        'must be a date and time that exist (2026-02-30 17:00:00 does not)',
      ],
    ])('400 for %s, naming the field; nothing stored', async (_label, overrides, path, message) => {
      const club = await createFreshnessClub(sql());
      const token = await addEdgeToken(sql(), club.clubId);
      const response = await push(token, boxCheck(overrides));
      expect(response.status).toBe(400);
      expect(response.headers.get('content-type')).toBe('application/problem+json');
      expect(((await response.json()) as { errors: unknown[] }).errors).toEqual([{ path, message }]);
      expect(await sql()`select 1 from edge_starterlist where club_id = ${club.clubId}`).toHaveLength(0);
      expect(await sql()`select 1 from edge_box_signal where club_id = ${club.clubId}`).toHaveLength(0);
    });

    it('a box clock a few minutes ahead is still accepted', async () => {
      const club = await createFreshnessClub(sql());
      const token = await addEdgeToken(sql(), club.clubId);
      const checkedAt = new Date(Date.now() + 2 * 60_000).toISOString();
      expect((await push(token, boxCheck({ checkedAt }))).status).toBe(200);
      const [signal] = await sql()`select box_check_at from edge_box_signal where club_id = ${club.clubId}`;
      expect(signal!['box_check_at']).toEqual(new Date(checkedAt));
    });
  });

  describe('GET /healthz/data-freshness', () => {
    it('is public and counts the clubs checked', async () => {
      const fresh = await createFreshnessClub(sql());
      const stale = await createFreshnessClub(sql());
      await addHit(sql(), fresh.vereinsId!, minuteAgo());
      await addHit(sql(), stale.vereinsId!, monthAgo());
      const response = await host.request('GET', '/healthz/data-freshness');
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      const body = (await response.json()) as Record<string, unknown>;
      expect(Object.keys(body).sort()).toEqual(['checked', 'checkedAt', 'fresh', 'stale', 'status', 'unknown']);
      expect(body['status']).toBe('stale');
      expect(body['fresh']).toBeGreaterThanOrEqual(1);
      expect(body['stale']).toBeGreaterThanOrEqual(1);
      expect(body['checked']).toBe((body['fresh'] as number) + (body['stale'] as number) + (body['unknown'] as number));
    });

    it('answers error (503) while a club’s newest arrival lies in the future', async () => {
      const club = await createFreshnessClub(sql());
      await addHit(sql(), club.vereinsId!, new Date(Date.now() + DAY));
      try {
        const response = await host.request('GET', '/healthz/data-freshness');
        expect(response.status).toBe(503);
        expect(await response.json()).toMatchObject({ status: 'error' });
      } finally {
        // The club would turn every later check of this run red.
        await sql()`update club set status = 'inactive' where id = ${club.clubId}`;
      }
    });
  });

  describe('GET /api/admin/diagnostics/summary', () => {
    const summary = async (query = '') => {
      const response = await host.request('GET', `/api/admin/diagnostics/summary${query}`, {
        headers: await bearer('admin-9', { roles: ['platform_admin'] }),
      });
      expect(response.status).toBe(200);
      return (await response.json()) as {
        generatedAt: string;
        dataFreshness: { clubs: Entry[]; total: number; status: string; nextOffset: number | null };
      };
    };
    const entryOf = (body: { dataFreshness: { clubs: Entry[] } }, clubId: string) =>
      body.dataFreshness.clubs.find((entry) => entry.clubId === clubId);

    it.each<[string, () => Promise<Record<string, string>>, number]>([
      ['no token', () => Promise.resolve({}), 401],
      ['ops_admin', () => bearer('ops-1', { roles: ['ops_admin'] }), 403],
      ['support_admin', () => bearer('support-1', { roles: ['support_admin'] }), 403],
      ['billing_admin', () => bearer('billing-1', { roles: ['billing_admin'] }), 403],
      ['a plain user', () => bearer('user-1'), 403],
    ])('refuses %s', async (_label, headers, status) => {
      const response = await host.request('GET', '/api/admin/diagnostics/summary', { headers: await headers() });
      expect(response.status).toBe(status);
      expect(response.headers.get('content-type')).toContain('application/problem+json');
    });

    it('gives every stale club its rule-6 hint', async () => {
      const offline = await createFreshnessClub(sql(), { name: 'Hint box offline' });
      const stalled = await createFreshnessClub(sql(), { name: 'Hint transport stalled' });
      const broken = await createFreshnessClub(sql(), { name: 'Hint shot path broken' });
      const quiet = await createFreshnessClub(sql(), { name: 'Hint nothing shot' });
      for (const club of [offline, stalled, broken, quiet]) await addHit(sql(), club.vereinsId!, monthAgo());
      const stalledToken = await addEdgeToken(sql(), stalled.clubId);
      const brokenToken = await addEdgeToken(sql(), broken.clubId);
      await addEdgeToken(sql(), quiet.clubId, minuteAgo());
      await push(stalledToken, {
        starterlists: [],
        boxCheck: { checkedAt: minuteAgo().toISOString(), eveningStart: monthAgo().toISOString(), hitsAfterEvening: true },
      });
      await push(brokenToken, { starterlists: [list('D-1')] });

      const body = await summary('?status=stale&limit=1000');
      expect(body.dataFreshness.clubs.every((entry) => entry.status === 'stale')).toBe(true);
      expect(
        [offline, stalled, broken, quiet].map((club) => {
          const entry = entryOf(body, club.clubId);
          return [entry?.status, entry?.hint?.code];
        }),
      ).toEqual([
        ['stale', 'box_offline'],
        ['stale', 'transport_stalled'],
        ['stale', 'shot_path_broken'],
        ['stale', 'nothing_shot'],
      ]);
      const brokenEntry = entryOf(body, broken.clubId)!;
      expect(brokenEntry.lastStarterlistSeenAt).not.toBeNull();
      expect(brokenEntry.edgeTokenLastUsedAt).not.toBeNull();
      expect(brokenEntry.planSource).toBe('assumed');
      expect(brokenEntry.hint!.message).toContain('shot-data path');
    });

    it('lists a fresh club with its signals and no hint, and pages the clubs', async () => {
      const club = await createFreshnessClub(sql(), { name: 'Summary fresh club' });
      const arrived = minuteAgo();
      await addHit(sql(), club.vereinsId!, arrived);
      await sql()`insert into club_training_plan (club_id, time_zone, evenings, updated_by)
        values (${club.clubId}, 'Europe/Berlin', ${sql().json([{ weekday: 'monday', start: '18:00', end: '20:00', endsNextDay: false }])}, 'test')`;
      const body = await summary('?status=ok&limit=1000');
      expect(entryOf(body, club.clubId)).toMatchObject({
        status: 'ok',
        planSource: 'stored',
        lastArrivalAt: arrived.toISOString(),
        hint: null,
        since: null,
      });
      const firstPage = await summary('?limit=1');
      expect(firstPage.dataFreshness.clubs).toHaveLength(1);
      expect(firstPage.dataFreshness.nextOffset).toBe(1);
      expect(firstPage.dataFreshness.total).toBeGreaterThan(1);
    });

    it('carries the ingest block beside dataFreshness (unknown while the status switch is off)', async () => {
      const body = (await summary()) as unknown as { ingest: { status: string }; dataFreshness: unknown };
      expect(body.ingest.status).toBe('unknown');
      expect(body.dataFreshness).toBeDefined();
    });

    it('400 for a bad query, naming the field', async () => {
      const response = await host.request('GET', '/api/admin/diagnostics/summary?status=green&limit=0', {
        headers: await bearer('admin-9', { roles: ['platform_admin'] }),
      });
      expect(response.status).toBe(400);
      const problem = (await response.json()) as { errors: { path: string }[] };
      expect(problem.errors.map((error) => error.path).sort()).toEqual(['query.limit', 'query.status']);
    });
  });
});
