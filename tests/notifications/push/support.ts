import webPush from 'web-push';
import { overrideSettings } from '../../../shared/config/settings';
import { getSql } from '../../../shared/db/client';
import { useDeliveryTurn } from '../../support/deliveryTurn';
import { readFakeTls } from '../../../development/costsFake/certificate';
import { startFakeNotificationHubs, type FakeNotificationHubs } from '../../../development/pushFakes/notificationHubsFake';
import { startFakeWebPush, type FakeWebPush } from '../../../development/pushFakes/webPushFake';
import { notificationHubChannel } from '../../../shared/notifications/channels/notificationHubs/notificationHubChannel';
import type { PushChannels } from '../../../shared/notifications/push/pushChannels';
import { webPushChannel } from '../../../shared/notifications/channels/webPush/webPushChannel';

/** The local certificate jest's globalSetup made; its workers trust it through NODE_EXTRA_CA_CERTS. */
export function fakeTls(): { cert: string; key: string } {
  const caFile = process.env['NODE_EXTRA_CA_CERTS'];
  if (!caFile) throw new Error('NODE_EXTRA_CA_CERTS is not set: run the push tests through jest (tests/support/globalSetup.ts)');
  return readFakeTls(caFile);
}

export interface PushWorld {
  hub: FakeNotificationHubs;
  browsers: FakeWebPush;
  vapid: { subject: string; publicKey: string; privateKey: string };
  /** The real SDK and web-push against the fakes. */
  channels: PushChannels;
  close(): Promise<void>;
}

export async function startPushWorld(): Promise<PushWorld> {
  const tls = fakeTls();
  const hub = await startFakeNotificationHubs({ tls });
  const browsers = await startFakeWebPush({ tls });
  const vapid = { subject: 'mailto:push@clubs.example.org', ...webPush.generateVAPIDKeys() };
  const channels: PushChannels = {
    web: { channel: webPushChannel(vapid), publicKey: vapid.publicKey, allowedHosts: ['127.0.0.1'] },
    mobile: notificationHubChannel({ connectionString: hub.connectionString, hubName: hub.hubName }),
  };
  return {
    hub,
    browsers,
    vapid,
    channels,
    async close() {
      await hub.close();
      await browsers.close();
    },
  };
}

/** Settings that point the app at the fakes, for a test host. */
export function pushSettings(world: PushWorld): Record<string, string> {
  return {
    NOTIFY_PUSH_HUB_CONNECTION: world.hub.connectionString,
    NOTIFY_PUSH_HUB_NAME: world.hub.hubName,
    NOTIFY_WEBPUSH_PUBLIC_KEY: world.vapid.publicKey,
    NOTIFY_WEBPUSH_PRIVATE_KEY: world.vapid.privateKey,
    NOTIFY_WEBPUSH_SUBJECT: world.vapid.subject,
    NOTIFY_WEBPUSH_ALLOWED_HOSTS: '127.0.0.1',
  };
}

/**
 * The push fakes for a describe block, with the service's settings pointed at them (a test host
 * started after this call sees them): started before its tests, closed and the settings restored
 * after. Call the returned function inside a test for the running world.
 */
export function usePushWorldSettings(): () => PushWorld {
  let world: PushWorld | undefined;
  let restore = () => {};
  beforeAll(async () => {
    world = await startPushWorld();
    restore = overrideSettings(pushSettings(world));
  });
  afterAll(async () => {
    restore();
    await world?.close();
  });
  return () => {
    if (!world) throw new Error('the push world is started in beforeAll: use it inside a test');
    return world;
  };
}

/**
 * The push fakes for a test file whose rows are all due in `year`: started before its tests and
 * closed after them, and the rows of that year still pending withdrawn before each test, so that
 * no test claims an earlier one's leftovers. A worker with a later year's clock would claim an
 * earlier year's rows too, so the files take turns. Call the returned function inside a test for the world.
 */
export function usePushWorldOf(year: number): () => PushWorld {
  useDeliveryTurn();
  let world: PushWorld | undefined;
  beforeAll(async () => {
    world = await startPushWorld();
  });
  afterAll(() => world?.close());
  beforeEach(async () => {
    await getSql()`update notification_outbox set status = 'cancelled'
      where status = 'pending' and deliver_after >= make_date(${year}, 1, 1) and deliver_after < make_date(${year + 1}, 1, 1)`;
  });
  return () => {
    if (!world) throw new Error('the push world is started in beforeAll: use it inside a test');
    return world;
  };
}

export const apnsToken = (seed: number) => seed.toString(16).padStart(8, '0').repeat(8);
export const fcmToken = (seed: number) => `fcm-token-${seed}-${'x'.repeat(40)}`;
