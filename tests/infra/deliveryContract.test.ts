import { getSql } from '../../shared/db/client';
import { parseSettings, type Settings } from '../../shared/config/settings';
import { createLogger } from '../../shared/log/logger';
import { runDeliveryTimer } from '../../shared/notifications/deliveryTimer';
import { registerPush } from '../../shared/notifications/push/pushRegistrations';
import { startFakeAcsEmail, type FakeAcsEmail } from '../../development/acsEmailFake/server';
import { startIdentityEndpoint, type IdentityEndpoint } from '../../development/local/identityEndpoint';
import { apnsToken, fakeTls, usePushWorldOf } from '../notifications/push/support';
import { newMember, notifyAt } from '../notifications/support';
import { deployedResources, ENTRA_SIGN_IN, functionAppEnvironment } from './processSettings';

/**
 * The delivery timer with exactly the settings infra gives the function app (processSettings.ts),
 * only the endpoints and secrets replaced by local fakes: email through the Communication Services
 * SDK with the app's user-assigned managed identity (the fake takes only Entra tokens), mobile push
 * through the Notification Hubs SDK, Web Push through web-push with the VAPID pair from Key Vault.
 * Rows are due in 1993 and the timer runs with a 1993 clock, taking turns with the other delivery
 * files (usePushWorldOf), so it claims only this file's rows.
 */
const FUNCTION_CLIENT = '6f1e0c55-0000-4000-8000-00000000f0f0';
const COMMUNICATION = 'https://communication.azure.com';
const PUBLIC_BASE_URL = 'https://func-scb-production-abc123.azurewebsites.net';
const T0 = new Date('1993-05-04T10:00:00.000Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);

const world = usePushWorldOf(1993);
let identity: IdentityEndpoint;
let email: FakeAcsEmail;
const restoreEnv: Record<string, string | undefined> = {};

beforeAll(async () => {
  identity = await startIdentityEndpoint({ clientIds: [FUNCTION_CLIENT], resources: [COMMUNICATION] });
  email = await startFakeAcsEmail({
    tls: fakeTls(),
    verifyBearer: async (token) => (await identity.verify(token, COMMUNICATION)).ok,
  });
  // The platform's managed identity endpoint, as App Service hands it to the app's process.
  for (const [name, value] of Object.entries(identity.environment)) {
    restoreEnv[name] = process.env[name];
    process.env[name] = value;
  }
});
afterAll(async () => {
  for (const [name, value] of Object.entries(restoreEnv)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  await email?.close();
  await identity?.close();
});

// Nothing of this file's stays pending for a later delivery file to claim.
afterEach(async () => {
  await getSql()`update notification_outbox set status = 'cancelled'
    where status = 'pending' and deliver_after >= '1993-01-01' and deliver_after < '1994-01-01'`;
});

/** The production function app's settings as infra writes them, with this test's fakes behind them. */
function deployedSettings(): Settings {
  const { hub, vapid } = world();
  return parseSettings(
    functionAppEnvironment('production', {
      secrets: {
        'database-url': process.env['DATABASE_URL'] ?? '',
        'paging-cursor-key': 'k'.repeat(64),
        'notification-hub-connection': hub.connectionString,
        'webpush-vapid-public-key': vapid.publicKey,
        'webpush-vapid-private-key': vapid.privateKey,
      },
      resources: deployedResources({
        functionIdentityClientId: FUNCTION_CLIENT,
        emailEndpoint: email.endpoint,
        emailSenderAddress: 'DoNotReply@0f1e2d3c-aaaa.azurecomm.net',
        notificationHubName: hub.hubName,
        publicBaseUrl: PUBLIC_BASE_URL,
        webPushSubject: PUBLIC_BASE_URL,
      }),
      deployment: ENTRA_SIGN_IN,
    }),
  );
}

describe('delivery contract: the timer with the settings infra deploys', () => {
  it('sends the email, the hub push and the Web Push through the real SDKs', async () => {
    const settings = deployedSettings();
    expect({ connection: settings.NOTIFY_EMAIL_CONNECTION, clientId: settings.NOTIFY_EMAIL_CLIENT_ID }).toEqual({
      connection: undefined,
      clientId: FUNCTION_CLIENT,
    });
    const address = `anna.${Date.now()}@example.org`;
    const userId = await newMember({}, { email: address, language: 'de' });
    // Registration is not under test here (infra's allowed push hosts are the browsers' real ones):
    // the member's browser and phone are registered as the app would register them.
    const browser = world().browsers.subscribe(world().vapid.publicKey);
    await registerPush(getSql(), world().channels, userId, { platform: 'webpush', subscription: browser });
    await registerPush(getSql(), world().channels, userId, { platform: 'apns', deviceToken: apnsToken(1993) });
    await notifyAt(userId, { channels: ['email', 'push'] }, T0);

    const run = await runDeliveryTimer(getSql(), settings, createLogger({ minLevel: 'error' }), () => at(1));

    expect(run.email).toMatchObject({ emails: 1, sent: 1 });
    expect(run.push).toMatchObject({ sent: 1 });
    const [mail] = email.emails.filter((sent) => sent.to.includes(address));
    expect(mail?.senderAddress).toBe('DoNotReply@0f1e2d3c-aaaa.azurecomm.net');
    expect(mail?.subject).toContain('Training moved');
    // RFC 8058 one-click unsubscribe at the app's public https address.
    expect(mail?.headers['List-Unsubscribe']).toMatch(new RegExp(`^<${PUBLIC_BASE_URL.replace(/\./g, '\\.')}/`));
    // The email went the managed identity's way: a token for Communication Services, for the app's identity.
    expect(identity.issued).toEqual(expect.arrayContaining([{ resource: COMMUNICATION, clientId: FUNCTION_CLIENT }]));
    expect(email.requests.unauthorized).toBe(0);
    expect(world().hub.pushes.filter((push) => push.userId === userId)).toHaveLength(1);
    expect(world().browsers.pushes.filter((push) => browser.endpoint.endsWith(push.subscriptionId))).toHaveLength(1);
  }, 60_000);
});
