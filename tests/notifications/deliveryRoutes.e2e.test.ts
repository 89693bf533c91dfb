import { randomUUID } from 'node:crypto';
import { getSql } from '../../shared/db/client';
import { saveContact } from '../../shared/notifications/contactRepository';
import { unsubscribeUrl } from '../../shared/notifications/channels/email/unsubscribe';
import { notify } from '../../shared/notifications/notify';
import { loadSettings } from '../../shared/notifications/preferencesRepository';
import { useTestHost } from '../support/testHost';
import { bearer } from '../support/tokens';

describe('delivery routes over HTTP', () => {
  const host = useTestHost();

  const pathOf = (url: string) => url.slice(url.indexOf('/api/'));

  // What a mail provider sends for RFC 8058 one-click (Gmail and Yahoo use the url-encoded form).
  const ONE_CLICK = { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' };

  it('one-click unsubscribe: the provider POSTs the form body without credentials and the category goes off', async () => {
    const userId = `user-${randomUUID()}`;
    const link = pathOf(unsubscribeUrl('https://clubs.example.org', { userId, category: 'board' }));
    const response = await host.request('POST', link, ONE_CLICK);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ unsubscribed: 'board' });
    const { preferences } = await loadSettings(getSql(), userId);
    expect(preferences.email.categories.board).toBe(false);
    expect(preferences.email.categories.club).toBe(true);
    // A GET (link preview, mail scanner) unsubscribes nobody.
    expect((await host.request('GET', link)).status).toBe(405);
  });

  it('one-click unsubscribe accepts the multipart/form-data encoding RFC 8058 prefers', async () => {
    const userId = `user-${randomUUID()}`;
    const link = unsubscribeUrl(host.url, { userId, category: null });
    const form = new FormData();
    form.append('List-Unsubscribe', 'One-Click');
    const response = await fetch(link, { method: 'POST', body: form });
    expect(response.status).toBe(200);
    expect((await loadSettings(getSql(), userId)).preferences.email.enabled).toBe(false);
  });

  it.each([
    ['no body and no media type', {}, 415, undefined],
    ['an empty form', { ...ONE_CLICK, body: '' }, 400, 'body'],
    ['a JSON body', { headers: { 'content-type': 'application/json' }, body: '{"List-Unsubscribe":"One-Click"}' }, 415, undefined],
    ['another value', { ...ONE_CLICK, body: 'List-Unsubscribe=Yes' }, 400, 'body.List-Unsubscribe'],
    ['the field missing', { ...ONE_CLICK, body: 'Unsubscribe=One-Click' }, 400, 'body.List-Unsubscribe'],
    ['an extra field', { ...ONE_CLICK, body: 'List-Unsubscribe=One-Click&all=1' }, 400, 'body.all'],
    ['the field twice', { ...ONE_CLICK, body: 'List-Unsubscribe=One-Click&List-Unsubscribe=One-Click' }, 400, 'body.List-Unsubscribe'],
    ['malformed UTF-8', { ...ONE_CLICK, body: 'List-Unsubscribe=One-Click%FF%FE' }, 400, 'body.List-Unsubscribe'],
    ['a NUL character', { ...ONE_CLICK, body: 'List-Unsubscribe=One-Click%00' }, 400, 'body.List-Unsubscribe'],
    ['an oversized body', { ...ONE_CLICK, body: `List-Unsubscribe=One-Click&x=${'a'.repeat(5000)}` }, 413, undefined],
  ])('one-click unsubscribe refuses %s with problem+json and changes nothing', async (_name, init, status, path) => {
    const userId = `user-${randomUUID()}`;
    const link = pathOf(unsubscribeUrl('https://clubs.example.org', { userId, category: 'club' }));
    const response = await host.request('POST', link, init);
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toMatch(/application\/problem\+json/);
    const problem = (await response.json()) as { errors?: { path: string }[] };
    if (path) expect(problem.errors?.map((error) => error.path)).toContain(path);
    const [row] = await getSql()`select 1 from user_settings where user_id = ${userId}`;
    expect(row).toBeUndefined();
  });

  it('a forged token answers 400 naming query.token and stores nothing', async () => {
    const userId = `user-${randomUUID()}`;
    const link = pathOf(unsubscribeUrl('https://clubs.example.org', { userId, category: null }));
    const forged = link.replace(/token=([^.]+)\./, (_, payload: string) => `token=${payload}x.`);
    const response = await host.request('POST', forged, ONE_CLICK);
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
      // A confirmed address, so the entry queues an email beside the push.
      await saveContact(getSql(), owner, { email: `${owner}@example.org`, language: 'de' });
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
