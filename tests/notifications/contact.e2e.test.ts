import { randomUUID } from 'node:crypto';
import { getSql } from '../../shared/db/client';
import { loadContacts } from '../../shared/notifications/contactRepository';
import { useTestHost } from '../support/testHost';
import { bearer } from '../support/tokens';

describe('GET and PUT /api/user/contact', () => {
  const host = useTestHost();

  it('answers no address and German for a member who never set one, then what they stored', async () => {
    const userId = `user-${randomUUID()}`;
    const headers = await bearer(userId);
    const first = await host.request('GET', '/api/user/contact', { headers });
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('no-store');
    expect(await first.json()).toEqual({ email: null, language: 'de' });

    const put = await host.request('PUT', '/api/user/contact', { headers, json: { email: '  Anna.Schmidt@example.org ', language: 'en' } });
    expect(put.status).toBe(200);
    expect(await put.json()).toEqual({ email: 'Anna.Schmidt@example.org', language: 'en' });
    expect((await loadContacts(getSql(), [userId])).get(userId)).toEqual({ email: 'Anna.Schmidt@example.org', language: 'en' });

    // null removes the address; the language stays what was sent.
    const removed = await host.request('PUT', '/api/user/contact', { headers, json: { email: null, language: 'de' } });
    expect(await removed.json()).toEqual({ email: null, language: 'de' });
    // Another member sees only their own.
    const other = await host.request('GET', '/api/user/contact', { headers: await bearer(`user-${randomUUID()}`) });
    expect(await other.json()).toEqual({ email: null, language: 'de' });
  });

  it.each([
    ['an address without @', { email: 'anna.example.org', language: 'de' }, 'body.email'],
    ['an address too long for any mailbox', { email: `${'a'.repeat(250)}@example.org`, language: 'de' }, 'body.email'],
    ['a header injection', { email: 'anna@example.org\r\nBcc: all@example.org', language: 'de' }, 'body.email'],
    ['an unknown language', { email: 'anna@example.org', language: 'fr' }, 'body.language'],
    ['no language', { email: 'anna@example.org' }, 'body.language'],
    ['no email key', { language: 'de' }, 'body.email'],
    ['a number for the address', { email: 42, language: 'de' }, 'body.email'],
  ])('refuses %s with 400 naming the field and stores nothing', async (_name, json, path) => {
    const userId = `user-${randomUUID()}`;
    const response = await host.request('PUT', '/api/user/contact', { headers: await bearer(userId), json });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/application\/problem\+json/);
    const problem = (await response.json()) as { errors: { path: string }[] };
    expect(problem.errors.map((error) => error.path)).toContain(path);
    expect((await loadContacts(getSql(), [userId])).size).toBe(0);
  });

  it('answers 401 without a token', async () => {
    expect((await host.request('GET', '/api/user/contact')).status).toBe(401);
    expect((await host.request('PUT', '/api/user/contact', { json: { email: null, language: 'de' } })).status).toBe(401);
  });
});
