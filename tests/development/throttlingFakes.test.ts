import https from 'node:https';
import { EmailClient } from '@azure/communication-email';
import { createTemplateNotification, NotificationHubsClient } from '@azure/notification-hubs';
import { startFakeAcsEmail, type FakeAcsEmail } from '../../development/acsEmailFake/server';
import { startFakeNotificationHubs, type FakeNotificationHubs } from '../../development/pushFakes/notificationHubsFake';
import { startFakeWebPush, type FakeWebPush } from '../../development/pushFakes/webPushFake';
import { fakeTls } from '../notifications/push/support';

/**
 * The fakes' throttling switch as a person uses it on `npm start` (a POST to the fake's control
 * URL), answered in each service's own shape. The SDKs' retries are off here so that the answer
 * reaches the test as the delivery worker's policy sees it.
 */
let email: FakeAcsEmail;
let hub: FakeNotificationHubs;
let browsers: FakeWebPush;
beforeAll(async () => {
  email = await startFakeAcsEmail();
  hub = await startFakeNotificationHubs({ tls: fakeTls() });
  browsers = await startFakeWebPush({ tls: fakeTls() });
});
afterAll(async () => {
  await email.close();
  await hub.close();
  await browsers.close();
});

const noRetries = { retryOptions: { maxRetries: 0 } };
const message = {
  senderAddress: 'DoNotReply@mail.example.org',
  content: { subject: 'Hello', plainText: 'Hello' },
  recipients: { to: [{ address: 'someone@example.org' }] },
};

function request(url: string, body = ''): Promise<{ status: number; headers: Record<string, unknown>; text: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = https.request(url, { method: 'POST', headers: { TTL: '60' } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, text: Buffer.concat(chunks).toString('utf8') }),
      );
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

describe('the fakes answer 429 with Retry-After for the next n requests when told to', () => {
  it('Communication Services Email: 429 TooManyRequests, the JSON error and x-ms-error-code, nothing sent; then sends again', async () => {
    const control = await fetch(`${email.endpoint}/emails:throttle?count=2&retryAfter=45`, { method: 'POST' });
    expect(control.status).toBe(204);
    const client = new EmailClient(email.connectionString, { allowInsecureConnection: true, ...noRetries });
    for (let index = 0; index < 2; index++) {
      const refused = await client.beginSend(message).then(
        () => undefined,
        (error: unknown) =>
          error as { statusCode?: number; code?: string; response?: { headers: { get(name: string): string | undefined } } },
      );
      expect(refused).toMatchObject({ statusCode: 429, code: 'TooManyRequests' });
      expect(refused?.response?.headers.get('retry-after')).toBe('45');
      expect(refused?.response?.headers.get('x-ms-error-code')).toBe('TooManyRequests');
    }
    expect(email.emails).toHaveLength(0);
    expect(email.requests.throttled).toBe(2);
    const poller = await client.beginSend(message);
    expect((await poller.pollUntilDone()).status).toBe('Succeeded');
    expect(email.emails).toHaveLength(1);
  });

  it('Notification Hubs: the status asked for, with Retry-After and the XML error, for that many sends', async () => {
    expect((await request(`${hub.endpoint}/_fake/fail-sends?count=1&status=429&retryAfter=30`)).status).toBe(204);
    const client = new NotificationHubsClient(hub.connectionString, hub.hubName, noRetries);
    const notification = createTemplateNotification({ body: { text: 'x' } });
    const refused = (await client.sendNotification(notification, { tagExpression: 'nobody' }).catch((error: unknown) => error)) as {
      statusCode?: number;
      message?: string;
      response?: { headers: { get(name: string): string | undefined } };
    };
    expect(refused.statusCode).toBe(429);
    expect(refused.response?.headers.get('retry-after')).toBe('30');
    expect(refused.message).toMatch(/throttled/);
    await expect(client.sendNotification(notification, { tagExpression: 'nobody' })).resolves.toMatchObject({ state: 'Enqueued' });
  });

  it('Web Push: 429 Too Many Requests with Retry-After for the subscription endpoint, then 201s again', async () => {
    expect((await request(`${browsers.origin}/_fake/throttle?count=1&retryAfter=Wed,%2021%20Oct%202026%2007:28:00%20GMT`)).status).toBe(
      204,
    );
    const { endpoint } = browsers.subscribe('BNb3'.padEnd(87, 'A'));
    const refused = await request(endpoint);
    expect(refused).toMatchObject({ status: 429, text: 'Too Many Requests' });
    expect(refused.headers['retry-after']).toBe('Wed, 21 Oct 2026 07:28:00 GMT');
    // The next request is checked as usual again (this one carries no VAPID token: 401).
    expect((await request(endpoint)).status).toBe(401);
  });
});
