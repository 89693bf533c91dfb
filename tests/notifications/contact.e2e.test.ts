import { randomUUID } from 'node:crypto';
import { getSql } from '../../shared/db/client';
import { loadContacts } from '../../shared/notifications/contactRepository';
import { confirmationToken } from '../../shared/notifications/contactConfirmationToken';
import { CONFIRMATIONS_PER_DAY } from '../../shared/notifications/contactService';
import { useTestHost } from '../support/testHost';
import { bearer } from '../support/tokens';

const NOTHING = { email: null, emailConfirmed: false, pendingEmail: null, signInEmail: null, language: 'de' };

/** The token of the member's newest link, as the email carries it (the database keeps only its hash). */
async function latestToken(userId: string): Promise<string> {
  const [row] = await getSql()<{ id: string }[]>`
    select id from user_contact_confirmation where user_id = ${userId} order by created_at desc limit 1`;
  return confirmationToken(row?.id ?? '');
}

async function confirmationEmailsOf(userId: string): Promise<number> {
  const [row] = await getSql()<{ count: number }[]>`
    select count(*)::int as count from notification_outbox where user_id = ${userId} and contact_confirmation_id is not null`;
  return row?.count ?? 0;
}

describe('GET and PUT /api/user/contact', () => {
  const host = useTestHost();

  it('answers no address and German for a member who never set one, then what they stored', async () => {
    const userId = `user-${randomUUID()}`;
    const headers = await bearer(userId);
    const first = await host.request('GET', '/api/user/contact', { headers });
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('no-store');
    expect(await first.json()).toEqual(NOTHING);

    // Not the sign-in's address: it waits for its link, nothing is in use yet.
    const put = await host.request('PUT', '/api/user/contact', { headers, json: { email: '  Anna.Schmidt@example.org ', language: 'en' } });
    expect(put.status).toBe(200);
    expect(await put.json()).toEqual({ ...NOTHING, pendingEmail: 'Anna.Schmidt@example.org', language: 'en' });
    expect((await loadContacts(getSql(), [userId])).get(userId)).toEqual({
      email: null,
      pendingEmail: 'Anna.Schmidt@example.org',
      language: 'en',
    });

    // null removes the address, the waiting one too, and the link's address; the language stays what was sent.
    const link = await latestToken(userId);
    const removed = await host.request('PUT', '/api/user/contact', { headers, json: { email: null, language: 'de' } });
    expect(await removed.json()).toEqual(NOTHING);
    const links = await getSql()<{ email: string | null }[]>`select email from user_contact_confirmation where user_id = ${userId}`;
    expect(links).toEqual([{ email: null }]);
    const late = await host.request('POST', '/api/user/contact/confirmations', { headers, json: { token: link } });
    expect(late.status).toBe(410);
    // Another member sees only their own.
    const other = await host.request('GET', '/api/user/contact', { headers: await bearer(`user-${randomUUID()}`) });
    expect(await other.json()).toEqual(NOTHING);
  });

  it("offers the sign-in's verified address and takes it at once, without a confirmation email", async () => {
    const userId = `user-${randomUUID()}`;
    const headers = await bearer(userId, { claims: { email: 'Berta@Example.org', email_verified: true } });
    expect(await (await host.request('GET', '/api/user/contact', { headers })).json()).toEqual({
      ...NOTHING,
      signInEmail: 'Berta@Example.org',
    });
    const put = await host.request('PUT', '/api/user/contact', { headers, json: { email: 'berta@example.org', language: 'de' } });
    expect(await put.json()).toEqual({
      email: 'berta@example.org',
      emailConfirmed: true,
      pendingEmail: null,
      signInEmail: 'Berta@Example.org',
      language: 'de',
    });
    expect(await confirmationEmailsOf(userId)).toBe(0);
    // Unverified, the same claim offers nothing.
    const unverified = await bearer(userId, { claims: { email: 'Berta@Example.org', email_verified: false } });
    expect(
      ((await (await host.request('GET', '/api/user/contact', { headers: unverified })).json()) as { signInEmail: unknown }).signInEmail,
    ).toBeNull();
  });

  it('confirms another address by the token of its link, once; a foreign, made-up, replaced or expired token changes nothing', async () => {
    const userId = `user-${randomUUID()}`;
    const headers = await bearer(userId);
    await host.request('PUT', '/api/user/contact', { headers, json: { email: 'carla@example.org', language: 'de' } });
    const first = await latestToken(userId);
    await host.request('PUT', '/api/user/contact', { headers, json: { email: 'carla@example.com', language: 'de' } });
    const token = await latestToken(userId);
    expect(await confirmationEmailsOf(userId)).toBe(2);

    const confirm = (body: unknown, as = headers) => host.request('POST', '/api/user/contact/confirmations', { headers: as, json: body });
    const replaced = await confirm({ token: first });
    expect(replaced.status).toBe(410);
    expect(((await replaced.json()) as { code: string }).code).toBe('confirmation_replaced');

    const stranger = await confirm({ token }, await bearer(`user-${randomUUID()}`));
    expect(stranger.status).toBe(400);
    expect(((await stranger.json()) as { errors: { path: string }[] }).errors.map((error) => error.path)).toEqual(['body.token']);
    for (const bad of [{ token: 'made-up' }, { token: `${token}x` }, {}, { token: 42 }]) {
      const response = await confirm(bad);
      expect(response.status).toBe(400);
      expect(response.headers.get('content-type')).toMatch(/application\/problem\+json/);
    }
    expect((await loadContacts(getSql(), [userId])).get(userId)?.email).toBeNull();

    const confirmed = await confirm({ token });
    expect(confirmed.status).toBe(200);
    expect(await confirmed.json()).toEqual({ ...NOTHING, email: 'carla@example.com', emailConfirmed: true });
    const again = await confirm({ token });
    expect(again.status).toBe(410);
    expect(((await again.json()) as { code: string }).code).toBe('confirmation_used');

    // A later address waits while the confirmed one stays in use; its link runs out after 24 hours.
    await host.request('PUT', '/api/user/contact', { headers, json: { email: 'carla@example.net', language: 'en' } });
    const late = await latestToken(userId);
    await getSql()`update user_contact_confirmation set expires_at = now() - interval '1 second' where user_id = ${userId} and used_at is null`;
    const expired = await confirm({ token: late });
    expect(expired.status).toBe(410);
    expect(((await expired.json()) as { code: string }).code).toBe('confirmation_expired');
    expect(await (await host.request('GET', '/api/user/contact', { headers })).json()).toEqual({
      ...NOTHING,
      email: 'carla@example.com',
      emailConfirmed: true,
      pendingEmail: 'carla@example.net',
      language: 'en',
    });
  });

  it('sends at most five links a day, then answers 409 and stores nothing', async () => {
    const userId = `user-${randomUUID()}`;
    const headers = await bearer(userId);
    for (let n = 1; n <= CONFIRMATIONS_PER_DAY; n += 1) {
      expect(
        (await host.request('PUT', '/api/user/contact', { headers, json: { email: `d${n}@example.org`, language: 'de' } })).status,
      ).toBe(200);
    }
    const refused = await host.request('PUT', '/api/user/contact', { headers, json: { email: 'd9@example.org', language: 'de' } });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { code: string }).code).toBe('confirmation_limit');
    expect((await loadContacts(getSql(), [userId])).get(userId)?.pendingEmail).toBe(`d${CONFIRMATIONS_PER_DAY}@example.org`);
    expect(await confirmationEmailsOf(userId)).toBe(CONFIRMATIONS_PER_DAY);
    // Removing the address does not start the count again.
    await host.request('PUT', '/api/user/contact', { headers, json: { email: null, language: 'de' } });
    expect((await host.request('PUT', '/api/user/contact', { headers, json: { email: 'd9@example.org', language: 'de' } })).status).toBe(
      409,
    );
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
    expect((await host.request('POST', '/api/user/contact/confirmations', { json: { token: 'x' } })).status).toBe(401);
    expect((await host.request('GET', '/api/user/contact')).status).toBe(401);
    expect((await host.request('PUT', '/api/user/contact', { json: { email: null, language: 'de' } })).status).toBe(401);
  });
});
