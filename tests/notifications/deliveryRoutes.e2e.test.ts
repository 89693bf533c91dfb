import { randomUUID } from 'node:crypto';
import { getSql } from '../../shared/db/client';
import { unsubscribeUrl } from '../../shared/notifications/delivery/unsubscribe';
import { notify } from '../../shared/notifications/notify';
import { loadSettings } from '../../shared/notifications/preferencesRepository';
import { useTestHost } from '../support/testHost';
import { bearer } from '../support/tokens';

describe('delivery routes over HTTP', () => {
  const host = useTestHost();

  const pathOf = (url: string) => url.slice(url.indexOf('/api/'));

  it('one-click unsubscribe: a POST of the link without credentials switches the category off', async () => {
    const userId = `user-${randomUUID()}`;
    const link = pathOf(unsubscribeUrl('https://clubs.example.org', { userId, category: 'board' }));
    const response = await host.request('POST', link);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ unsubscribed: 'board' });
    const { preferences } = await loadSettings(getSql(), userId);
    expect(preferences.email.categories.board).toBe(false);
    expect(preferences.email.categories.club).toBe(true);
    // A GET (link preview, mail scanner) unsubscribes nobody.
    expect((await host.request('GET', link)).status).toBe(405);
  });

  it('a forged token answers 400 naming query.token and stores nothing', async () => {
    const userId = `user-${randomUUID()}`;
    const link = pathOf(unsubscribeUrl('https://clubs.example.org', { userId, category: null }));
    const forged = link.replace(/token=([^.]+)\./, (_, payload: string) => `token=${payload}x.`);
    const response = await host.request('POST', forged);
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(JSON.stringify(await response.json())).toContain('query.token');
    const [row] = await getSql()`select 1 from user_settings where user_id = ${userId}`;
    expect(row).toBeUndefined();
  });

  describe('the delivery log of an entry', () => {
    const owner = `user-${randomUUID()}`;
    let id: string;
    beforeAll(async () => {
      ({ id } = await getSql().begin((tx) =>
        notify(tx, { userId: owner, title: 'Dues', tone: 'info', kind: 'billing', source: 'test' }, new Date('1998-01-01T10:00:00Z')),
      ));
    });
    afterAll(async () => {
      await getSql()`update notification_outbox set status = 'cancelled' where notification_id = ${id}`;
    });

    it('answers its owner', async () => {
      const mine = await host.request('GET', `/api/notifications/${id}/deliveries`, { headers: await bearer(owner) });
      expect(mine.status).toBe(200);
      expect(await mine.json()).toEqual({ items: [], pending: 2 });
    });

    it('answers 404 to anyone else', async () => {
      const theirs = await host.request('GET', `/api/notifications/${id}/deliveries`, { headers: await bearer(`user-${randomUUID()}`) });
      expect(theirs.status).toBe(404);
    });
  });
});
