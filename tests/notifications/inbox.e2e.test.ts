import { randomUUID } from 'node:crypto';
import { getSql } from '../../shared/db/client';
import { notify } from '../../shared/notifications/notify';
import { anyOf } from '../support/http';
import { useTestHost } from '../support/testHost';
import { bearer } from '../support/tokens';
import { inboxCursor } from '../../shared/notifications/cursor';

interface Page {
  items: { id: string; title: string; body?: string; date: string; tone: string; read: boolean }[];
  unreadCount: number;
  nextCursor: string | null;
}

const newUser = () => `user-${randomUUID()}`;

/** Creates `count` entries for the user through the producer function; answers their ids, oldest first. */
async function seed(userId: string, count: number, title = 'Entry'): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const { id } = await getSql().begin((tx) =>
      notify(tx, { userId, title: `${title} ${i}`, tone: 'info', kind: 'member', source: 'test', channels: [] }),
    );
    ids.push(id);
  }
  return ids;
}

describe('notification inbox over HTTP', () => {
  const host = useTestHost();

  async function call(userId: string, method: string, path: string): Promise<Response> {
    return host.request(method, path, { headers: await bearer(userId) });
  }
  async function list(userId: string, query = ''): Promise<Page> {
    const response = await call(userId, 'GET', `/api/notifications${query}`);
    expect(response.status).toBe(200);
    return (await response.json()) as Page;
  }

  it('lists exactly NotificationRecord fields, newest first, with unreadCount and no next page', async () => {
    const user = newUser();
    await getSql().begin((tx) =>
      notify(tx, {
        userId: user,
        title: 'Invoice paid',
        body: 'Thanks',
        tone: 'success',
        kind: 'billing',
        source: 'billing',
        channels: [],
      }),
    );
    await getSql().begin((tx) =>
      notify(tx, { userId: user, title: 'Licence expires', tone: 'warning', kind: 'billing', source: 'billing', channels: [] }),
    );

    const page = await list(user);
    expect(page.unreadCount).toBe(2);
    expect(page.nextCursor).toBeNull();
    expect(page.items.map((item) => item.title)).toEqual(['Licence expires', 'Invoice paid']);
    const [withoutBody, withBody] = page.items;
    expect(Object.keys(withoutBody!).sort()).toEqual(['date', 'id', 'read', 'title', 'tone']);
    expect(withBody).toEqual({
      id: anyOf(String),
      title: 'Invoice paid',
      body: 'Thanks',
      date: anyOf(String),
      tone: 'success',
      read: false,
    });
    expect(new Date(withBody!.date).toISOString()).toBe(withBody!.date);
  });

  it('answers an empty inbox for a new user', async () => {
    expect(await list(newUser())).toEqual({ items: [], unreadCount: 0, nextCursor: null });
  });

  it('answers 401 without a token', async () => {
    for (const [method, path] of [
      ['GET', '/api/notifications'],
      ['POST', '/api/notifications/read-all'],
      ['DELETE', '/api/notifications'],
      ['POST', '/api/notifications/x/read'],
    ] as const) {
      expect((await host.request(method, path)).status).toBe(401);
    }
  });

  describe.each([
    ['primary', { one: ['POST', '/read'], all: ['POST', '/read-all'], del: ['DELETE', ''], clear: ['DELETE', ''] }],
    ['compatibility', { one: ['PATCH', '/read'], all: ['PATCH', '/read-all'], del: ['POST', '/delete'], clear: ['POST', '/clear'] }],
  ] as const)('%s endpoints', (_set, routes) => {
    const oneRead = (id: string) => [routes.one[0], `/api/notifications/${id}${routes.one[1]}`] as const;
    const allRead = [routes.all[0], `/api/notifications${routes.all[1]}`] as const;
    const deleteOne = (id: string) => [routes.del[0], `/api/notifications/${id}${routes.del[1]}`] as const;
    const clear = [routes.clear[0], routes.clear[0] === 'DELETE' ? '/api/notifications' : '/api/notifications/clear'] as const;

    it('read false → read true for one id; repeating is a no-op', async () => {
      const user = newUser();
      const [first, second] = await seed(user, 2);
      expect((await call(user, ...oneRead(first!))).status).toBe(204);
      let page = await list(user);
      expect(page.unreadCount).toBe(1);
      expect(page.items.find((item) => item.id === first)?.read).toBe(true);
      expect(page.items.find((item) => item.id === second)?.read).toBe(false);

      expect((await call(user, ...oneRead(first!))).status).toBe(204);
      page = await list(user);
      expect(page.unreadCount).toBe(1);
    });

    it('any → all read true; repeating and an empty inbox are fine', async () => {
      const user = newUser();
      const [first] = await seed(user, 3);
      await call(user, ...oneRead(first!));
      expect((await call(user, ...allRead)).status).toBe(204);
      const page = await list(user);
      expect(page.unreadCount).toBe(0);
      expect(page.items).toHaveLength(3);
      expect(page.items.every((item) => item.read)).toBe(true);
      expect((await call(user, ...allRead)).status).toBe(204);
      expect((await call(newUser(), ...allRead)).status).toBe(204);
    });

    it('present → removed for one id; a repeat answers 404', async () => {
      const user = newUser();
      const [first, second] = await seed(user, 2);
      expect((await call(user, ...deleteOne(first!))).status).toBe(204);
      const page = await list(user);
      expect(page.items.map((item) => item.id)).toEqual([second]);
      expect(page.unreadCount).toBe(1);
      expect((await call(user, ...deleteOne(first!))).status).toBe(404);
    });

    it('present → all removed on clear; repeating and an empty inbox are fine', async () => {
      const user = newUser();
      await seed(user, 3);
      expect((await call(user, ...clear)).status).toBe(204);
      expect(await list(user)).toEqual({ items: [], unreadCount: 0, nextCursor: null });
      expect((await call(user, ...clear)).status).toBe(204);
    });

    it("another user's id answers 404 and changes nothing", async () => {
      const owner = newUser();
      const intruder = newUser();
      const [id] = await seed(owner, 1);
      await seed(intruder, 1);
      const readResponse = await call(intruder, ...oneRead(id!));
      expect(readResponse.status).toBe(404);
      expect(readResponse.headers.get('content-type')).toContain('application/problem+json');
      expect((await call(intruder, ...deleteOne(id!))).status).toBe(404);
      expect((await call(intruder, ...allRead)).status).toBe(204);
      expect((await call(intruder, ...clear)).status).toBe(204);

      const ownerPage = await list(owner);
      expect(ownerPage.items.map((item) => [item.id, item.read])).toEqual([[id, false]]);
      expect(ownerPage.unreadCount).toBe(1);
    });

    it('an unknown id answers 404', async () => {
      const user = newUser();
      expect((await call(user, ...oneRead(randomUUID()))).status).toBe(404);
      expect((await call(user, ...deleteOne('not-an-id'))).status).toBe(404);
    });

    it.each(['%00', 'a%00b', `${randomUUID()}%00`, randomUUID().toUpperCase(), '%E2%80%AE', 'x'.repeat(300)])(
      'an id that cannot be an inbox id (%s) answers 404 on read and delete, and changes nothing',
      async (id) => {
        const user = newUser();
        await seed(user, 1);
        for (const [method, path] of [oneRead(id), deleteOne(id)]) {
          const response = await call(user, method, path);
          expect(response.status).toBe(404);
          expect(response.headers.get('content-type')).toContain('application/problem+json');
        }
        expect((await list(user)).unreadCount).toBe(1);
      },
    );
  });

  it('describes both endpoint sets and the settings in the OpenAPI document', async () => {
    const response = await host.request('GET', '/api/openapi.json');
    expect(response.status).toBe(200);
    const { paths } = (await response.json()) as { paths: Record<string, Record<string, unknown>> };
    expect(Object.keys(paths['/api/notifications']!).sort()).toEqual(['delete', 'get']);
    expect(Object.keys(paths['/api/notifications/{id}/read']!).sort()).toEqual(['patch', 'post']);
    expect(Object.keys(paths['/api/notifications/read-all']!).sort()).toEqual(['patch', 'post']);
    expect(Object.keys(paths['/api/notifications/{id}']!)).toEqual(['delete']);
    expect(Object.keys(paths['/api/notifications/{id}/delete']!)).toEqual(['post']);
    expect(Object.keys(paths['/api/notifications/clear']!)).toEqual(['post']);
    expect(Object.keys(paths['/api/user/settings']!).sort()).toEqual(['get', 'patch', 'put']);
  });

  it('does not take read-all or clear for an id', async () => {
    const user = newUser();
    await seed(user, 1);
    expect((await call(user, 'DELETE', '/api/notifications/read-all')).status).toBe(405);
    expect((await call(user, 'GET', '/api/notifications/clear')).status).toBe(405);
    expect((await list(user)).items).toHaveLength(1);
  });

  it('pages with a cursor without duplicates or gaps while new entries arrive', async () => {
    const user = newUser();
    const original = await seed(user, 7, 'Old');
    const first = await list(user, '?limit=3');
    expect(first.items.map((item) => item.id)).toEqual(original.slice(4).reverse());
    expect(first.nextCursor).toEqual(expect.any(String));

    const arrived = await seed(user, 4, 'New');

    const second = await list(user, `?limit=3&cursor=${first.nextCursor}`);
    const third = await list(user, `?limit=3&cursor=${second.nextCursor}`);
    expect(third.nextCursor).toBeNull();
    const listed = [...first.items, ...second.items, ...third.items].map((item) => item.id);
    expect(listed).toEqual([...original].reverse());
    expect(new Set(listed).size).toBe(listed.length);
    expect(third.unreadCount).toBe(original.length + arrived.length);

    const fresh = await list(user, '?limit=4');
    expect(fresh.items.map((item) => item.id)).toEqual([...arrived].reverse());
  });

  it('filters unread entries and keeps unreadCount independent of the page', async () => {
    const user = newUser();
    const ids = await seed(user, 5);
    await call(user, 'POST', `/api/notifications/${ids[1]}/read`);
    await call(user, 'POST', `/api/notifications/${ids[3]}/read`);

    const unread = await list(user, '?unread=true');
    expect(unread.items.map((item) => item.id)).toEqual([ids[4], ids[2], ids[0]]);
    expect(unread.items).toHaveLength(3);
    expect(unread.items.every((item) => !item.read)).toBe(true);

    const firstUnread = await list(user, '?unread=true&limit=2');
    expect(firstUnread.items).toHaveLength(2);
    const restUnread = await list(user, `?unread=true&limit=2&cursor=${firstUnread.nextCursor}`);
    expect(restUnread.items.map((item) => item.id)).toEqual([ids[0]]);
    expect(restUnread.nextCursor).toBeNull();

    const one = await list(user, '?limit=1');
    expect(one.unreadCount).toBe(3);
    expect((await list(user, '?unread=false')).items).toHaveLength(5);
  });

  it('answers the unread count with an empty page: nothing unread under the filter, nothing left after a cursor', async () => {
    const allRead = newUser();
    await seed(allRead, 2);
    await call(allRead, 'POST', '/api/notifications/read-all');
    expect(await list(allRead, '?unread=true')).toEqual({ items: [], unreadCount: 0, nextCursor: null });

    const user = newUser();
    const ids = await seed(user, 4);
    const first = await list(user, '?limit=2');
    expect(first.nextCursor).toEqual(expect.any(String));
    // The entries the cursor would lead to are gone before the client asks for them.
    await call(user, 'DELETE', `/api/notifications/${ids[0]}`);
    await call(user, 'DELETE', `/api/notifications/${ids[1]}`);
    expect(await list(user, `?limit=2&cursor=${first.nextCursor}`)).toEqual({ items: [], unreadCount: 2, nextCursor: null });
    expect(await list(user, `?unread=true&limit=2&cursor=${first.nextCursor}`)).toEqual({ items: [], unreadCount: 2, nextCursor: null });
  });

  it('defaults the limit to 50 and accepts 200', async () => {
    const user = newUser();
    await getSql()`
      insert into notification (user_id, title, tone, kind, source)
      select ${user}, 'Bulk ' || n, 'info', 'member', 'test' from generate_series(1, 210) as n`;
    const defaultPage = await list(user);
    expect(defaultPage.items).toHaveLength(50);
    expect(defaultPage.unreadCount).toBe(210);
    const maxPage = await list(user, '?limit=200');
    expect(maxPage.items).toHaveLength(200);
    const rest = await list(user, `?limit=200&cursor=${maxPage.nextCursor}`);
    expect(rest.items).toHaveLength(10);
    expect(rest.nextCursor).toBeNull();
  });

  it.each([
    ['?limit=0', 'query.limit'],
    ['?limit=201', 'query.limit'],
    ['?limit=abc', 'query.limit'],
    ['?limit=-1', 'query.limit'],
    ['?cursor=nonsense!', 'query.cursor'],
    [`?cursor=${inboxCursor.encode(['yesterday', 1])}`, 'query.cursor'],
    // A well-formed position without the tag this service signs it with is no cursor of this list.
    [`?cursor=${Buffer.from('["2026-11-18T12:00:00.000000Z",1]').toString('base64url')}`, 'query.cursor'],
    ['?unread=yes', 'query.unread'],
    [`?cursor=${inboxCursor.encode(['2026-02-30T12:00:00.000000Z', 1])}`, 'query.cursor'],
    [`?cursor=${inboxCursor.encode(['0000-01-01T00:00:00.000000Z', 1])}`, 'query.cursor'],
    [`?cursor=${inboxCursor.encode(['2026-11-18T24:00:00.000000Z', 1])}`, 'query.cursor'],
    [`?cursor=${inboxCursor.encode(['2026-04-31T10:00:00.000000Z', 1])}`, 'query.cursor'],
  ])('answers 400 for %s naming %s', async (query, path) => {
    const response = await call(newUser(), 'GET', `/api/notifications${query}`);
    expect(response.status).toBe(400);
    const problem = (await response.json()) as { errors: { path: string }[] };
    expect(problem.errors.map((error) => error.path)).toEqual([path]);
  });

  it('accepts a leap-day cursor', async () => {
    const cursor = inboxCursor.encode(['2028-02-29T12:00:00.123456Z', 1]);
    expect((await list(newUser(), `?cursor=${cursor}`)).items).toEqual([]);
  });
});
