import { overrideSettings } from '../../shared/config/settings';
import { closeSql, getBulkSql, getSql } from '../../shared/db/client';
import { readJson, type ProblemJson } from '../support/http';
import { useTestHost } from '../support/testHost';
import { bearer } from '../support/tokens';
import { activeVereinsIds, clubList } from '../clubMaster/fixtures';
import { createBox } from '../support/fixtures';

// Small pools and short waits: this file's pools are made on its first query, with these settings.
let restoreSettings = () => {};
beforeAll(async () => {
  restoreSettings = overrideSettings({
    DATABASE_POOL_MAX: '2',
    DATABASE_POOL_WAIT_MS: '300',
    DATABASE_BULK_POOL_MAX: '1',
    DATABASE_BULK_POOL_WAIT_MS: '300',
  });
  await closeSql();
});
afterAll(async () => {
  await closeSql();
  restoreSettings();
});

/** Holds `count` connections of a pool in open transactions until the returned function is called. */
async function holdConnections(pool: () => ReturnType<typeof getSql>, count: number): Promise<() => Promise<void>> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const started: Promise<void>[] = [];
  const holders = Array.from({ length: count }, () => {
    let began!: () => void;
    started.push(new Promise<void>((resolve) => (began = resolve)));
    return pool().begin(async (tx) => {
      await tx`select 1`;
      began();
      await released;
    });
  });
  await Promise.all(started);
  return async () => {
    release();
    await Promise.all(holders);
  };
}

describe('pool exhaustion: requests wait briefly, then 503 with Retry-After, never hang', () => {
  const host = useTestHost();

  it('answers a user request 503 pool_busy with Retry-After while every user connection is held, and 200 once one is free', async () => {
    const headers = await bearer('pool-user-1');
    expect((await host.request('GET', '/api/notifications', { headers })).status).toBe(200);

    const release = await holdConnections(getSql, 2);
    let answers: Response[];
    try {
      answers = await Promise.all([1, 2, 3].map(() => host.request('GET', '/api/notifications', { headers })));
    } finally {
      await release();
    }
    for (const answer of answers) {
      expect(answer.status).toBe(503);
      expect(answer.headers.get('retry-after')).toBe('2');
      expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect((await readJson<ProblemJson>(answer)).code).toBe('pool_busy');
    }
    expect((await host.request('GET', '/api/notifications', { headers })).status).toBe(200);
  });

  it('lets a queued request through when a connection frees up within the wait', async () => {
    const headers = await bearer('pool-user-2');
    const release = await holdConnections(getSql, 2);
    const pending = host.request('GET', '/api/notifications', { headers });
    // Freed at once: the queued query gets the connection before its wait runs out.
    await release();
    expect((await pending).status).toBe(200);
  });

  it('keeps box reports off the user pool: user requests pass while the bulk pool is full, the report gets 503 and nothing of it is written', async () => {
    const box = await createBox(getSql());
    const release = await holdConnections(getBulkSql, 1);
    let report: Response;
    let inbox: Response;
    try {
      [report, inbox] = await Promise.all([
        host.request('POST', '/api/edge/clubs/sync', {
          headers: { authorization: `Bearer ${box.token}` },
          json: { clubs: clubList('p', 50) },
        }),
        host.request('GET', '/api/notifications', { headers: await bearer('pool-user-3') }),
      ]);
    } finally {
      await release();
    }
    expect(inbox.status).toBe(200);
    expect(report.status).toBe(503);
    expect(report.headers.get('retry-after')).toBe('2');
    expect((await readJson<ProblemJson>(report)).code).toBe('pool_busy');
    expect(await activeVereinsIds(getSql(), box.clubId)).toEqual([]);

    // Sent again once the bulk pool is free, the report is written whole.
    const again = await host.request('POST', '/api/edge/clubs/sync', {
      headers: { authorization: `Bearer ${box.token}` },
      json: { clubs: clubList('p', 50) },
    });
    expect(again.status).toBe(200);
    expect(await activeVereinsIds(getSql(), box.clubId)).toHaveLength(50);
  });
});
