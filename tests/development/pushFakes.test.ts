import https from 'node:https';
import { createAppleInstallation, createTemplateNotification, NotificationHubsClient } from '@azure/notification-hubs';
import webPush from 'web-push';
import { startFakeNotificationHubs, type FakeNotificationHubs } from '../../development/pushFakes/notificationHubsFake';
import { startFakeWebPush, type FakeWebPush } from '../../development/pushFakes/webPushFake';
import { fakeTls } from '../notifications/push/support';

/** The fakes `npm start` runs refuse what the real services refuse (the SDKs are tested against them elsewhere). */
let hub: FakeNotificationHubs;
let browsers: FakeWebPush;
beforeAll(async () => {
  hub = await startFakeNotificationHubs({ tls: fakeTls() });
  browsers = await startFakeWebPush({ tls: fakeTls() });
});
afterAll(async () => {
  await hub.close();
  await browsers.close();
});

function post(url: string, headers: Record<string, string>, body: Buffer | string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const request = https.request(url, { method: 'POST', headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
    });
    request.on('error', reject);
    request.end(body);
  });
}

describe('the Notification Hubs fake', () => {
  it('refuses a SAS token made with another key (401, the XML error the SDK reads) and stores nothing', async () => {
    const wrongKey = hub.connectionString.replace(/SharedAccessKey=[^;]+$/, 'SharedAccessKey=not-the-key');
    const client = new NotificationHubsClient(wrongKey, hub.hubName);
    const installation = createAppleInstallation({ installationId: 'fake-test-1', pushChannel: 'ab'.repeat(32) });
    await expect(client.createOrUpdateInstallation(installation)).rejects.toMatchObject({ statusCode: 401 });
    expect(hub.installations.has('fake-test-1')).toBe(false);
    expect(hub.requests.unauthorized).toBeGreaterThan(0);
  });

  it('refuses an APNs installation whose channel is not a device token (400)', async () => {
    const client = new NotificationHubsClient(hub.connectionString, hub.hubName);
    const installation = createAppleInstallation({ installationId: 'fake-test-2', pushChannel: 'not-hex' });
    await expect(client.createOrUpdateInstallation(installation)).rejects.toMatchObject({ statusCode: 400 });
  });

  it('renders a template send for the installations the tag expression names, and 201 for one naming none', async () => {
    const client = new NotificationHubsClient(hub.connectionString, hub.hubName);
    await client.createOrUpdateInstallation(
      createAppleInstallation({
        installationId: 'fake-test-3',
        pushChannel: 'cd'.repeat(32),
        templates: { alert: { body: '{"aps":{"alert":"$(text)"}}', headers: {}, tags: ['loud'] } },
      }),
    );
    const sent = await client.sendNotification(createTemplateNotification({ body: { text: 'Say "hi"' } }), {
      tagExpression: '$InstallationId:{fake-test-3} && loud',
    });
    expect(sent.notificationId).toMatch(/^\d+$/);
    expect(hub.pushes.filter((push) => push.installationId === 'fake-test-3').map((push) => push.payload)).toEqual([
      { aps: { alert: 'Say "hi"' } },
    ]);
    const before = hub.pushes.length;
    await client.sendNotification(createTemplateNotification({ body: { text: 'x' } }), {
      tagExpression: '$InstallationId:{fake-test-3} && quiet',
    });
    expect(hub.pushes.length).toBe(before);
  });
});

describe('the Web Push service fake', () => {
  const vapid = { subject: 'mailto:test@example.org', ...webPush.generateVAPIDKeys() };
  const details = (subscription: webPush.PushSubscription, keys = vapid, options: webPush.RequestOptions = {}) =>
    webPush.generateRequestDetails(subscription, 'hello', { vapidDetails: keys, contentEncoding: 'aes128gcm', TTL: 60, ...options });
  const headersOf = (request: ReturnType<typeof details>) =>
    Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]));

  it('decrypts a push made for the subscription and records it', async () => {
    const subscription = browsers.subscribe(vapid.publicKey);
    const request = details(subscription);
    expect((await post(request.endpoint, headersOf(request), request.body)).status).toBe(201);
    expect(browsers.pushes.at(-1)).toMatchObject({ payload: 'hello', ttl: 60, vapid: { sub: 'mailto:test@example.org' } });
  });

  it.each([
    ['no TTL header', (headers: Record<string, string>) => ({ ...headers, TTL: undefined }), 400],
    ['no VAPID authorization', (headers: Record<string, string>) => ({ ...headers, Authorization: undefined }), 401],
    ['another content coding', (headers: Record<string, string>) => ({ ...headers, 'Content-Encoding': 'aesgcm' }), 415],
    ['an invalid Urgency', (headers: Record<string, string>) => ({ ...headers, Urgency: 'urgent' }), 400],
  ])('refuses %s', async (_name, change, status) => {
    const subscription = browsers.subscribe(vapid.publicKey);
    const request = details(subscription);
    const headers = Object.fromEntries(Object.entries(change(headersOf(request))).filter(([, value]) => value !== undefined)) as Record<
      string,
      string
    >;
    const before = browsers.pushes.length;
    expect((await post(request.endpoint, headers, request.body)).status).toBe(status);
    expect(browsers.pushes.length).toBe(before);
  });

  it('refuses a push signed with another VAPID key than the subscription was made with (403)', async () => {
    const subscription = browsers.subscribe(vapid.publicKey);
    const request = details(subscription, { subject: vapid.subject, ...webPush.generateVAPIDKeys() });
    expect((await post(request.endpoint, headersOf(request), request.body)).status).toBe(403);
  });

  it('refuses a body that does not decrypt with the subscription keys (400)', async () => {
    const subscription = browsers.subscribe(vapid.publicKey);
    const request = details(subscription);
    const body = Buffer.from(request.body);
    body[body.length - 1] = (body[body.length - 1] ?? 0) ^ 0xff;
    expect((await post(request.endpoint, headersOf(request), body)).status).toBe(400);
  });
});
