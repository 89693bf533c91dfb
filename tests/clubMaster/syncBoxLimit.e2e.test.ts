import { overrideSettings } from '../../shared/config/settings';
import { getSql } from '../../shared/db/client';
import { readJson, type ProblemJson } from '../support/http';
import { useTestHost } from '../support/testHost';
import { activeVereinsIds, clubList, holdBoxSyncLock } from './fixtures';
import { createBox } from '../support/fixtures';

// One report of a box written at a time and one waiting: the settings are read on the first request.
overrideSettings({ CLUB_MASTER_SYNC_RUNNING_PER_BOX: '1', CLUB_MASTER_SYNC_WAITING_PER_BOX: '1' });

describe('POST /api/edge/clubs/sync: the reports one box may have in flight', () => {
  const host = useTestHost();
  const sql = () => getSql();
  const sync = (token: string, json: unknown) =>
    host.request('POST', '/api/edge/clubs/sync', { headers: { authorization: `Bearer ${token}` }, json });

  it('refuses reports beyond the running and waiting ones with 503 and Retry-After, and lets other boxes through', async () => {
    const box = await createBox(sql());
    const other = await createBox(sql());
    // Holding the box's sync lock keeps its first report running until the others have arrived.
    const lock = await holdBoxSyncLock(sql(), box.clubId);
    const prefixes = ['a', 'b', 'c'];
    const reports = prefixes.map((prefix, index) =>
      sync(box.token, { clubs: clubList(prefix, 3) }).then((response) => ({ response, index })),
    );
    let refusedIndex = -1;
    try {
      // While the lock is held no report of this box can finish: the first answer is the refusal.
      const first = await Promise.race(reports);
      refusedIndex = first.index;
      expect(first.response.status).toBe(503);
      expect(first.response.headers.get('retry-after')).toBe('60');
      expect((await readJson<ProblemJson>(first.response)).code).toBe('box_report_limit');
      expect((await sync(other.token, { clubs: clubList('x', 2) })).status).toBe(200);
    } finally {
      await lock.release();
    }
    const statuses = (await Promise.all(reports)).map(({ response }) => response.status);
    expect(statuses.sort()).toEqual([200, 200, 503]);
    const active = await activeVereinsIds(sql(), box.clubId);
    expect(active).toHaveLength(3);
    expect(active.some((id) => id.startsWith(prefixes[refusedIndex] ?? 'none'))).toBe(false);
  });

  it("takes the box's turn before reading the body: a report beyond the waiting places is refused unread, a waiting one is read on its turn", async () => {
    const box = await createBox(sql());
    const lock = await holdBoxSyncLock(sql(), box.clubId);
    const malformed = (index: number) =>
      host
        .request('POST', '/api/edge/clubs/sync', {
          headers: { authorization: `Bearer ${box.token}`, 'content-type': 'application/json' },
          body: '{"clubs": [',
        })
        .then((response) => ({ response, index }));
    const running = sync(box.token, { clubs: clubList('r', 2) });
    let late: Array<Promise<{ response: Response; index: number }>> = [];
    try {
      // The first report holds the box's one turn once it waits for the sync lock.
      while ((await sql()`select 1 from pg_locks where locktype = 'advisory' and not granted`).length === 0) {
        await new Promise((resolve) => setImmediate(resolve));
      }
      // Two malformed reports: one takes the waiting place with its body unread, the other finds
      // the places full and is refused with 503 unread (were bodies read first, both were 400s).
      late = [malformed(0), malformed(1)];
      const first = await Promise.race(late);
      expect(first.response.status).toBe(503);
      expect(first.response.headers.get('retry-after')).toBe('60');
      expect((await readJson<ProblemJson>(first.response)).code).toBe('box_report_limit');
      const stillWaiting = late[1 - first.index]!;
      expect(await Promise.race([stillWaiting.then(() => 'answered'), Promise.resolve('waiting')])).toBe('waiting');
    } finally {
      await lock.release();
    }
    expect((await running).status).toBe(200);
    // On its turn the waiting report's body is read, and refused as any malformed body is.
    const statuses = await Promise.all(late.map(async (pending) => (await pending).response.status));
    expect(statuses.sort()).toEqual([400, 503]);
  });
});
