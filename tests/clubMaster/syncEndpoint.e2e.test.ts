import { getSql } from '../../shared/db/client';
import { createEdgeToken, generateEdgeToken } from '../../shared/clubMaster/edgeTokens';
import * as knownClubSync from '../../shared/clubMaster/knownClubSync';
import { MAX_LISTED_ERRORS } from '../../shared/errors/domainErrors';
import { MAX_CLUBS_PER_REPORT } from '../../shared/clubMaster/schemas';
import type { SyncResult } from '../../shared/clubMaster/schemas';
import { anyOf, readJson, type ProblemJson } from '../support/http';
import { bearer } from '../support/tokens';
import { useTestHost } from '../support/testHost';
import { activeVereinsIds, clubList, holdBoxSyncLock, knownRows } from './fixtures';
import { createBox } from '../support/fixtures';

const SYNC = '/api/edge/clubs/sync';

describe('POST /api/edge/clubs/sync through the local host', () => {
  const sql = () => getSql();
  const sync = (token: string, json: unknown) => host.request('POST', SYNC, { headers: { authorization: `Bearer ${token}` }, json });

  const host = useTestHost();

  it('replaces the box state and answers the counts', async () => {
    const box = await createBox(sql());
    const first = await sync(box.token, {
      clubs: [
        { vereinsId: '100', name: 'SV Eins' },
        { vereinsId: '200', name: 'SV Zwei' },
      ],
    });
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ reported: 2, added: 2, restored: 0, refreshed: 0, markedDeleted: 0 });
    const second = await sync(box.token, {
      clubs: [
        { vereinsId: '200', name: 'SV Zwei' },
        { vereinsId: '300', name: 'SV Drei' },
      ],
    });
    expect(await second.json()).toEqual({ reported: 2, added: 1, restored: 0, refreshed: 1, markedDeleted: 1 });
    expect(await activeVereinsIds(sql(), box.clubId)).toEqual(['200', '300']);
  });

  it("accepts the box's consent with the report and refuses a malformed one, naming the field, changing nothing", async () => {
    const box = await createBox(sql());
    const clubs = [{ vereinsId: '110', name: 'SV Elf' }];
    const granted = await sync(box.token, { clubs, consent: { state: 'GRANTED', changedAt: '2026-03-01T10:00:00.000Z' } });
    expect(granted.status).toBe(200);
    const none = await sync(box.token, { clubs, consent: { state: 'NONE', changedAt: null } });
    expect(none.status).toBe(200);
    const bad = await sync(box.token, { clubs: [{ vereinsId: '120', name: 'SV Zwölf' }], consent: { state: 'MAYBE', changedAt: null } });
    expect(bad.status).toBe(400);
    expect((await readJson<ProblemJson>(bad)).errors?.map((error) => error.path)).toContain('body.consent.state');
    expect(await activeVereinsIds(sql(), box.clubId)).toEqual(['110']);
  });

  it('accepts the empty list and marks every club of the box deleted', async () => {
    const box = await createBox(sql());
    await sync(box.token, { clubs: clubList('e', 4) });
    const response = await sync(box.token, { clubs: [] });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ reported: 0, added: 0, restored: 0, refreshed: 0, markedDeleted: 4 });
    expect(await activeVereinsIds(sql(), box.clubId)).toEqual([]);
  });

  it('records edgeTokenLastUsedAt for the token', async () => {
    const box = await createBox(sql());
    await sync(box.token, { clubs: [] });
    const [token] = await sql()`select last_used_at from edge_token where id = ${box.tokenId}`;
    expect(token!['last_used_at']).toBeInstanceOf(Date);
  });

  it('writes last_used_at at most once a minute per token', async () => {
    const box = await createBox(sql());
    const lastUsed = async () =>
      ((await sql()`select last_used_at from edge_token where id = ${box.tokenId}`)[0]!['last_used_at'] as Date).getTime();
    await sync(box.token, { clubs: [] });
    // Dated back half a minute rather than waited for: still inside the minute, clearly in the past.
    await sql()`update edge_token set last_used_at = last_used_at - interval '30 seconds' where id = ${box.tokenId}`;
    const first = await lastUsed();
    await sync(box.token, { clubs: [] });
    expect(await lastUsed()).toBe(first);

    await sql()`update edge_token set last_used_at = last_used_at - interval '2 minutes' where id = ${box.tokenId}`;
    const aged = await lastUsed();
    await sync(box.token, { clubs: [] });
    expect(await lastUsed()).toBeGreaterThan(aged + 60_000);
  });

  it('takes the club from the token: box A cannot change box B, whatever the payload says', async () => {
    const boxA = await createBox(sql());
    const boxB = await createBox(sql());
    await sync(boxB.token, { clubs: [{ vereinsId: '500', name: 'SV B' }] });
    const response = await sync(boxA.token, { reportedByClubId: boxB.clubId, clubs: [] });
    expect(response.status).toBe(200);
    expect(await activeVereinsIds(sql(), boxB.clubId)).toEqual(['500']);
    expect(await knownRows(sql(), boxA.clubId)).toEqual([]);
  });

  describe('401 for bad credentials, nothing changed', () => {
    let box: Awaited<ReturnType<typeof createBox>>;
    beforeAll(async () => {
      box = await createBox(sql());
      await sync(box.token, { clubs: [{ vereinsId: '1', name: 'SV Eins' }] });
    });

    it.each<[string, () => Promise<Record<string, string>>]>([
      ['no Authorization header', () => Promise.resolve({})],
      ['a Basic credential', () => Promise.resolve({ authorization: 'Basic dXNlcjpwdw==' })],
      ['an unknown edge token', () => Promise.resolve({ authorization: `Bearer ${generateEdgeToken()}` })],
      ['a token that is not an edge token', () => Promise.resolve({ authorization: 'Bearer edge_short' })],
      ['a user JWT, even of a platform admin', () => bearer('admin-1', { roles: ['platform_admin'] })],
    ])('%s', async (_label, headers) => {
      const response = await host.request('POST', SYNC, { headers: await headers(), json: { clubs: [] } });
      expect(response.status).toBe(401);
      expect(response.headers.get('content-type')).toContain('application/problem+json');
      expect(await activeVereinsIds(sql(), box.clubId)).toEqual(['1']);
    });

    it('a revoked token', async () => {
      const { id, token } = await createEdgeToken(sql(), box.clubId);
      await sql()`update edge_token set revoked_at = now() where id = ${id}`;
      const response = await sync(token, { clubs: [] });
      expect(response.status).toBe(401);
      expect(await activeVereinsIds(sql(), box.clubId)).toEqual(['1']);
    });
  });

  describe('malformed bodies: 400 with nothing changed', () => {
    let box: Awaited<ReturnType<typeof createBox>>;
    beforeAll(async () => {
      box = await createBox(sql());
      await sync(box.token, { clubs: [{ vereinsId: '1', name: 'SV Eins' }] });
    });

    it.each<[string, unknown, string]>([
      ['no clubs field', {}, 'body.clubs'],
      ['clubs not an array', { clubs: { vereinsId: '1' } }, 'body.clubs'],
      ['a club without a name', { clubs: [{ vereinsId: '2' }] }, 'body.clubs.0.name'],
      ['a number with forbidden characters', { clubs: [{ vereinsId: '2; drop', name: 'x' }] }, 'body.clubs.0.vereinsId'],
      ['a number too long', { clubs: [{ vereinsId: '9'.repeat(33), name: 'x' }] }, 'body.clubs.0.vereinsId'],
      ['a name too long', { clubs: [{ vereinsId: '2', name: 'n'.repeat(201) }] }, 'body.clubs.0.name'],
      ['a name with a control character', { clubs: [{ vereinsId: '2', name: 'a\tb' }] }, 'body.clubs.0.name'],
      ['a name with a lone surrogate', { clubs: [{ vereinsId: '2', name: 'SV \ud800 Eins' }] }, 'body.clubs.0.name'],
      ['a name with a bidi override', { clubs: [{ vereinsId: '2', name: 'SV \u202eEins' }] }, 'body.clubs.0.name'],
      ['a name with a zero-width space', { clubs: [{ vereinsId: '2', name: 'SV\u200bEins' }] }, 'body.clubs.0.name'],
      ['a name with a word joiner', { clubs: [{ vereinsId: '2', name: 'SV\u2060Eins' }] }, 'body.clubs.0.name'],
      ['a name with a tag character', { clubs: [{ vereinsId: '2', name: 'SV Eins\u{e0041}' }] }, 'body.clubs.0.name'],
      ['a name with an Arabic letter mark', { clubs: [{ vereinsId: '2', name: '\u061cSV Eins' }] }, 'body.clubs.0.name'],
      ['an entry that is not an object', { clubs: [{ vereinsId: '2', name: 'a' }, 5] }, 'body.clubs.1'],
      [
        'a repeated club number',
        {
          clubs: [
            { vereinsId: '2', name: 'a' },
            { vereinsId: '3', name: 'b' },
            { vereinsId: ' 2', name: 'c' },
          ],
        },
        'body.clubs.2.vereinsId',
      ],
    ])('%s', async (_label, body, path) => {
      const response = await sync(box.token, body);
      expect(response.status).toBe(400);
      const problem = await readJson<ProblemJson>(response);
      expect(problem.errors).toEqual(expect.arrayContaining([expect.objectContaining({ path })]));
      expect(await activeVereinsIds(sql(), box.clubId)).toEqual(['1']);
    });

    /** The box's report as raw text of a content type, past the JSON the sync helper would write. */
    const postRaw = (contentType: string, body: string) =>
      host.request('POST', SYNC, { headers: { authorization: `Bearer ${box.token}`, 'content-type': contentType }, body });

    it('invalid JSON', async () => {
      const response = await postRaw('application/json', '{"clubs": [');
      expect(response.status).toBe(400);
      expect(await activeVereinsIds(sql(), box.clubId)).toEqual(['1']);
    });

    it('not JSON at all: 415', async () => {
      const response = await postRaw('text/plain', 'clubs');
      expect(response.status).toBe(415);
    });

    it(`more than ${MAX_CLUBS_PER_REPORT} clubs: 413`, async () => {
      const response = await sync(box.token, { clubs: clubList('big', MAX_CLUBS_PER_REPORT + 1) });
      expect(response.status).toBe(413);
      expect(await activeVereinsIds(sql(), box.clubId)).toEqual(['1']);
    });

    it(`more than ${MAX_CLUBS_PER_REPORT} clubs, one of them invalid: 413, the cap is checked before the entries`, async () => {
      const clubs: unknown[] = clubList('big', MAX_CLUBS_PER_REPORT + 1);
      clubs[17] = { vereinsId: 'bad id', name: '' };
      const response = await sync(box.token, { clubs });
      expect(response.status).toBe(413);
      expect(await activeVereinsIds(sql(), box.clubId)).toEqual(['1']);
    });

    it('50,000 empty entries: a small 413 without validating a single entry', async () => {
      const response = await sync(box.token, { clubs: Array.from({ length: 50_000 }, () => ({})) });
      const text = await response.text();
      expect(response.status).toBe(413);
      expect(text.length).toBeLessThan(1_000);
    });

    it(`lists at most ${MAX_LISTED_ERRORS} errors and says how many there were`, async () => {
      const response = await sync(box.token, { clubs: Array.from({ length: 150 }, () => ({})) });
      expect(response.status).toBe(400);
      const problem = await readJson<ProblemJson>(response);
      expect(problem.errors).toHaveLength(MAX_LISTED_ERRORS);
      expect(problem.errors?.[0]).toEqual({ path: 'body.clubs.0.vereinsId', message: anyOf(String) });
      expect(problem.errors?.[1]).toEqual({ path: 'body.clubs.0.name', message: anyOf(String) });
      expect(problem.detail).toContain('300 errors');
      expect(await activeVereinsIds(sql(), box.clubId)).toEqual(['1']);
    });
  });

  it(`accepts exactly ${MAX_CLUBS_PER_REPORT} clubs`, async () => {
    const box = await createBox(sql());
    const response = await sync(box.token, { clubs: clubList('cap', MAX_CLUBS_PER_REPORT) });
    expect(response.status).toBe(200);
    expect((await readJson<SyncResult>(response)).added).toBe(MAX_CLUBS_PER_REPORT);
  });

  describe('a report that cannot get the box lock in time', () => {
    afterEach(() => jest.restoreAllMocks());

    it('is answered 503 with Retry-After and changes nothing', async () => {
      const box = await createBox(sql());
      await sync(box.token, { clubs: [{ vereinsId: '1', name: 'SV Eins' }] });
      // The route's lock_timeout is 30 s; the same code path with a short one keeps the test fast.
      const original = knownClubSync.syncKnownClubs;
      jest
        .spyOn(knownClubSync, 'syncKnownClubs')
        .mockImplementation((db, clubId, clubs) => original(db, clubId, clubs, { lockTimeoutMs: 100 }));

      const lock = await holdBoxSyncLock(sql(), box.clubId);
      try {
        const response = await sync(box.token, { clubs: [] });
        expect(response.status).toBe(503);
        expect(response.headers.get('retry-after')).toBe('60');
        expect(response.headers.get('content-type')).toContain('application/problem+json');
      } finally {
        await lock.release();
      }
      expect(await activeVereinsIds(sql(), box.clubId)).toEqual(['1']);
    });
  });

  it('50 overlapping reports of one box all succeed and leave exactly one complete report', async () => {
    const box = await createBox(sql());
    await sync(box.token, { clubs: clubList('start', 30) });
    // Overlapping lists: report i holds numbers i..i+29, so consecutive reports share most rows.
    const reports = Array.from({ length: 50 }, (_, i) => clubList('o', 30, i));
    const responses = await Promise.all(reports.map((clubs) => sync(box.token, { clubs })));
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);

    const active = await activeVereinsIds(sql(), box.clubId);
    const matching = reports.filter((clubs) =>
      sameSet(
        clubs.map((club) => club.vereinsId),
        active,
      ),
    );
    expect(matching).toHaveLength(1);
    const rows = await knownRows(sql(), box.clubId);
    const names = new Map(matching[0]!.map((club) => [club.vereinsId, club.name]));
    expect(rows.filter((row) => !row.sourceDeleted).every((row) => names.get(row.vereinsId) === row.name)).toBe(true);
  });
});

function sameSet(a: string[], b: string[]): boolean {
  const left = [...a].sort();
  const right = [...b].sort();
  return left.length === right.length && left.every((value, i) => value === right[i]);
}
