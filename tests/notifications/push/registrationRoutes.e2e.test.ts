import { randomUUID } from 'node:crypto';
import { overrideSettings } from '../../../shared/config/settings';
import { getSql } from '../../../shared/db/client';
import { MAX_REGISTRATIONS_PER_USER } from '../../../shared/notifications/push/registrationSchemas';
import { useTestHost } from '../../support/testHost';
import { bearer } from '../../support/tokens';
import { apnsToken, fcmToken, usePushWorldSettings } from './support';

const PATH = '/api/user/push-registrations';

describe('push registrations over HTTP', () => {
  const pushWorld = usePushWorldSettings();
  const host = useTestHost();

  const subscription = () => pushWorld().browsers.subscribe(pushWorld().vapid.publicKey);

  it('answers the VAPID public key a browser subscribes with', async () => {
    const response = await host.request('GET', `${PATH}/web-push-key`, { headers: await bearer(`user-${randomUUID()}`) });
    expect(await response.json()).toEqual({ publicKey: pushWorld().vapid.publicKey });
  });

  it('registers a browser with the PushSubscription it got, once however often it sends it', async () => {
    const headers = await bearer(`user-${randomUUID()}`);
    const browser = subscription();
    const first = await host.request('POST', PATH, { headers, json: { platform: 'webpush', subscription: browser } });
    expect(first.status).toBe(201);
    const registration = (await first.json()) as { id: string; platform: string; label: string; createdAt: string; lastSentAt: null };
    expect(registration).toMatchObject({ platform: 'webpush', label: new URL(pushWorld().browsers.origin).host, lastSentAt: null });
    // The endpoint and keys act as credentials: never shown back.
    expect(JSON.stringify(registration)).not.toContain(browser.endpoint);
    const again = await host.request('POST', PATH, { headers, json: { platform: 'webpush', subscription: browser } });
    expect(((await again.json()) as { id: string }).id).toBe(registration.id);
    const list = (await (await host.request('GET', PATH, { headers })).json()) as { items: unknown[] };
    expect(list.items).toHaveLength(1);
  });

  it('registers an app as a hub installation, and removing it removes the installation', async () => {
    const userId = `user-${randomUUID()}`;
    const headers = await bearer(userId);
    const created = await host.request('POST', PATH, { headers, json: { platform: 'apns', deviceToken: apnsToken(77) } });
    expect(created.status).toBe(201);
    const { id, label } = (await created.json()) as { id: string; label: string };
    expect(label).toBe(`iOS device …${apnsToken(77).slice(-6)}`);
    expect(pushWorld().hub.installations.get(id)).toMatchObject({ platform: 'apns', userId });
    expect((await host.request('DELETE', `${PATH}/${id}`, { headers })).status).toBe(204);
    expect(pushWorld().hub.installations.has(id)).toBe(false);
    expect((await host.request('DELETE', `${PATH}/${id}`, { headers })).status).toBe(404);
  });

  it('a device on which another member signs in moves to that member', async () => {
    const token = fcmToken(5);
    const before = await host.request('POST', PATH, {
      headers: await bearer(`user-${randomUUID()}`),
      json: { platform: 'fcmv1', deviceToken: token },
    });
    const next = `user-${randomUUID()}`;
    const after = await host.request('POST', PATH, { headers: await bearer(next), json: { platform: 'fcmv1', deviceToken: token } });
    const { id } = (await after.json()) as { id: string };
    expect(id).toBe(((await before.json()) as { id: string }).id);
    expect(pushWorld().hub.installations.get(id)?.userId).toBe(next);
  });

  it(`keeps at most ${MAX_REGISTRATIONS_PER_USER} per member (the oldest goes) and pages the list newest first`, async () => {
    const userId = `user-${randomUUID()}`;
    const headers = await bearer(userId);
    const ids: string[] = [];
    for (let index = 0; index < MAX_REGISTRATIONS_PER_USER + 2; index++) {
      const response = await host.request('POST', PATH, { headers, json: { platform: 'webpush', subscription: subscription() } });
      ids.push(((await response.json()) as { id: string }).id);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor ? `?limit=4&cursor=${encodeURIComponent(cursor)}` : '?limit=4';
      const page = (await (await host.request('GET', `${PATH}${query}`, { headers })).json()) as {
        items: { id: string }[];
        nextCursor: string | null;
      };
      seen.push(...page.items.map((item) => item.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(ids.slice(2).reverse());
    const [{ count }] = await getSql()<[{ count: number }]>`select count(*)::int as count from push_registration where user_id = ${userId}`;
    expect(count).toBe(MAX_REGISTRATIONS_PER_USER);
  });

  it('another member cannot see or remove a registration', async () => {
    const owner = await bearer(`user-${randomUUID()}`);
    const created = await host.request('POST', PATH, { headers: owner, json: { platform: 'webpush', subscription: subscription() } });
    const { id } = (await created.json()) as { id: string };
    const stranger = await bearer(`user-${randomUUID()}`);
    expect(((await (await host.request('GET', PATH, { headers: stranger })).json()) as { items: unknown[] }).items).toEqual([]);
    expect((await host.request('DELETE', `${PATH}/${id}`, { headers: stranger })).status).toBe(404);
    expect((await host.request('DELETE', `${PATH}/not-a-uuid`, { headers: stranger })).status).toBe(404);
    expect(await getSql()`select 1 from push_registration where id = ${id}`).toHaveLength(1);
  });

  const good = () => subscription();
  it.each([
    ['an unknown platform', () => ({ platform: 'wns', deviceToken: 'x' }), 'body.platform'],
    [
      'a plain-http endpoint',
      () => ({ platform: 'webpush', subscription: { ...good(), endpoint: 'http://push.example.org/x' } }),
      'body.subscription.endpoint',
    ],
    [
      'a p256dh key of the wrong size',
      () => ({ platform: 'webpush', subscription: { ...good(), keys: { ...good().keys, p256dh: 'AAAA' } } }),
      'body.subscription.keys.p256dh',
    ],
    [
      // 65 bytes in the uncompressed form, but no point of P-256: every delivery would fail to encrypt to it.
      'a p256dh key of the right size that is not a point on P-256',
      () => ({
        platform: 'webpush',
        subscription: {
          ...good(),
          keys: { ...good().keys, p256dh: Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 1)]).toString('base64url') },
        },
      }),
      'body.subscription.keys.p256dh',
    ],
    [
      'an auth secret that is too short',
      () => ({ platform: 'webpush', subscription: { ...good(), keys: { ...good().keys, auth: 'AAAA' } } }),
      'body.subscription.keys.auth',
    ],
    ['a browser without its subscription', () => ({ platform: 'webpush', deviceToken: fcmToken(1) }), 'body.subscription'],
    ['an app without its token', () => ({ platform: 'fcmv1' }), 'body.deviceToken'],
    ['no keys', () => ({ platform: 'webpush', subscription: { endpoint: good().endpoint } }), 'body.subscription.keys'],
    ['an APNs token that is not hex', () => ({ platform: 'apns', deviceToken: 'z'.repeat(64) }), 'body.deviceToken'],
    ['an FCM token with spaces', () => ({ platform: 'fcmv1', deviceToken: 'a b'.repeat(10) }), 'body.deviceToken'],
  ])('refuses %s with 400 naming the field and stores nothing', async (_name, body, path) => {
    const userId = `user-${randomUUID()}`;
    const response = await host.request('POST', PATH, { headers: await bearer(userId), json: body() });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(((await response.json()) as { errors: { path: string }[] }).errors.map((error) => error.path)).toContain(path);
    expect(await getSql()`select 1 from push_registration where user_id = ${userId}`).toHaveLength(0);
  });

  it('answers 503 for a kind of push this deployment has not configured, and stores nothing', async () => {
    const userId = `user-${randomUUID()}`;
    const undo = overrideSettings({ NOTIFY_PUSH_HUB_CONNECTION: undefined, NOTIFY_WEBPUSH_PRIVATE_KEY: undefined });
    try {
      const mobile = await host.request('POST', PATH, {
        headers: await bearer(userId),
        json: { platform: 'fcmv1', deviceToken: fcmToken(9) },
      });
      expect(mobile.status).toBe(503);
      const web = await host.request('POST', PATH, { headers: await bearer(userId), json: { platform: 'webpush', subscription: good() } });
      expect(web.status).toBe(503);
      expect(await (await host.request('GET', `${PATH}/web-push-key`, { headers: await bearer(userId) })).json()).toEqual({
        publicKey: null,
      });
    } finally {
      undo();
    }
    expect(await getSql()`select 1 from push_registration where user_id = ${userId}`).toHaveLength(0);
  });
});
