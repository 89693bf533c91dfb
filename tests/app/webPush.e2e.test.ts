import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { overrideSettings } from '../../shared/config/settings';
import { webPushPayload } from '../../shared/notifications/channels/webPush/webPushChannel';
import { usePushWorldSettings } from '../notifications/push/support';
import { bearer, tokenFor } from '../support/tokens';
import {
  notificationPermission,
  pushDelivery,
  recordedUntil,
  storedSubscription,
  stubPushManager,
  recordShown,
  waitForNotification,
  waitForTitle,
  workerScope,
} from './pushSupport';
import { screenshot, signIn, useAppRig } from './support';

const REGISTRATIONS = '/api/user/push-registrations';

/**
 * "Push on this device" in the member app's settings and the service worker that shows the
 * pushes, in headless Chromium: the subscription is stubbed (no push service is reachable from
 * here, see pushSupport.ts), everything else is real: the permission, the registration routes,
 * the worker at /app/sw.js and the push event the DevTools protocol delivers to it.
 */
describe('member app: Web Push on this device', () => {
  const pushWorld = usePushWorldSettings();
  // The full browser: the headless shell the run's other files use offers the page no push subscription.
  const rig = useAppRig([], { fullBrowser: true });
  const member = `push-member-${randomUUID()}`;
  let page: Page;

  const registrations = async (userId: string) => {
    const response = await rig.host.request('GET', REGISTRATIONS, { headers: await bearer(userId) });
    return ((await response.json()) as { items: { id: string; platform: string; label: string }[] }).items;
  };
  const state = () => page.getByTestId('push-device-state');
  const pushSwitch = () => page.getByRole('switch', { name: 'Push notifications on this device' });

  beforeAll(async () => {
    page = await rig.newPage({ width: 390, height: 844 });
    await stubPushManager(page.context(), pushWorld().browsers.origin);
    await page.context().grantPermissions(['notifications'], { origin: rig.host.url });
    await signIn(page, rig.host.url, await tokenFor(member), '#/settings');
  });

  it('starts off and switched on by keyboard subscribes with the service key and registers this browser', async () => {
    await state().filter({ hasText: 'Off: this device receives no push notifications.' }).waitFor();
    expect(await pushSwitch().isChecked()).toBe(false);
    expect(await registrations(member)).toEqual([]);

    await pushSwitch().focus();
    await page.keyboard.press('Space');
    await state().filter({ hasText: 'On: this device receives push notifications.' }).waitFor();
    expect(await pushSwitch().isChecked()).toBe(true);

    const subscription = await storedSubscription(page);
    expect(subscription?.applicationServerKey).toBe(pushWorld().vapid.publicKey);
    expect(subscription?.endpoint.startsWith(`${pushWorld().browsers.origin}/push/`)).toBe(true);
    expect(await registrations(member)).toEqual([
      expect.objectContaining({ platform: 'webpush', label: new URL(pushWorld().browsers.origin).host }),
    ]);
    // The worker that shows the pushes runs for the app's pages, /app/, and nothing else.
    expect(await workerScope(page)).toBe(`${rig.host.url}/app/`);
    await screenshot(page, 'push-device-on-en');
  });

  it('is still on after a reload, not for another member on the same browser, and signing out takes it away', async () => {
    await page.reload();
    await state().filter({ hasText: 'On:' }).waitFor();

    // On a shared device the next person must not get the member's notifications.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Bearer token').waitFor();
    expect(await registrations(member)).toEqual([]);
    expect(await storedSubscription(page)).toBeNull();

    const other = `push-other-${randomUUID()}`;
    await signIn(page, rig.host.url, await tokenFor(other), '#/settings');
    await state().filter({ hasText: 'Off:' }).waitFor();
    expect(await registrations(other)).toEqual([]);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await signIn(page, rig.host.url, await tokenFor(member), '#/settings');
    await state().filter({ hasText: 'Off:' }).waitFor();
    await pushSwitch().focus();
    await page.keyboard.press('Space');
    await state().filter({ hasText: 'On:' }).waitFor();
    expect(await registrations(member)).toHaveLength(1);
  });

  it('shows a push the service sends, as sent, and the same push twice only once', async () => {
    const delivery = await pushDelivery(page, `${rig.host.url}/app/`);
    const shown = await recordShown(page.context(), `${rig.host.url}/app/sw.js`);
    const id = randomUUID();
    const payload = JSON.stringify(
      webPushPayload({ title: 'Training moved', body: 'Now at 19:00.', sound: true, notificationIds: [id], collapseKey: 'x' }),
    );
    await delivery.deliver(payload);
    await waitForNotification(page, {
      title: 'Training moved',
      body: 'Now at 19:00.',
      tag: `inbox:${id}`,
      data: { notificationIds: [id], url: '/app/#/inbox' },
    });
    await delivery.deliver(payload);
    // The worker handles pushes in order: once the next one shows, the repeat has been handled.
    await delivery.deliver(JSON.stringify({ title: 'Next', notificationIds: [randomUUID()] }));
    // Read from the worker's own record: headless Chromium's list of shown notifications now and
    // then drops an entry, and then the wait for "Next" there never ends.
    const calls = await recordedUntil(shown, 'Next');
    expect(calls.map((call) => [call.title, call.tag])).toEqual([
      ['Training moved', `inbox:${id}`],
      ['Training moved', `inbox:${id}`],
      ['Next', expect.stringMatching(/^inbox:/)],
    ]);
    // The repeat carries the same tag, so the browser replaced the first with it: the member sees it once.
    await waitForTitle(page, 'Training moved', 1);
    await delivery.close();
  });

  it('shows nothing for a malformed push, and the worker goes on showing the next one', async () => {
    const delivery = await pushDelivery(page, `${rig.host.url}/app/`);
    const shown = await recordShown(page.context(), `${rig.host.url}/app/sw.js`);
    for (const malformed of ['not json', '{"title":5}', '{"body":"no title"}', '[]', '']) await delivery.deliver(malformed);
    await delivery.deliver(JSON.stringify({ title: 'After the bad ones', body: '', silent: false, notificationIds: [randomUUID()] }));
    expect((await recordedUntil(shown, 'After the bad ones')).map((call) => call.title)).toEqual(['After the bad ones']);
    await delivery.close();
  });

  it('switched off removes the registration at the service and unsubscribes the browser', async () => {
    await pushSwitch().uncheck({ force: true });
    await state().filter({ hasText: 'Off:' }).waitFor();
    expect(await registrations(member)).toEqual([]);
    expect(await storedSubscription(page)).toBeNull();
    await page.reload();
    await state().filter({ hasText: 'Off:' }).waitFor();
  });

  it('says so, with the switch disabled, when the browser has no Push API', async () => {
    const bare = await rig.newPage({ width: 390, height: 844 });
    await bare.addInitScript({ content: 'delete window.PushManager;' });
    await signIn(bare, rig.host.url, await tokenFor(`push-bare-${randomUUID()}`), '#/settings');
    await bare
      .getByTestId('push-device-state')
      .filter({ hasText: 'Not supported: this browser cannot receive push notifications.' })
      .waitFor();
    expect(await bare.getByRole('switch', { name: 'Push notifications on this device' }).isDisabled()).toBe(true);
    await bare.close();
  });

  it('says so, with the switch disabled, when the service has no Web Push key', async () => {
    const unconfigured = overrideSettings({ NOTIFY_WEBPUSH_PUBLIC_KEY: undefined, NOTIFY_WEBPUSH_PRIVATE_KEY: undefined });
    try {
      const other = await rig.newPage({ width: 390, height: 844 });
      await signIn(other, rig.host.url, await tokenFor(`push-none-${randomUUID()}`), '#/settings');
      await other
        .getByTestId('push-device-state')
        .filter({ hasText: 'Not available: push to browsers is not set up for this service yet. Emails and the inbox still reach you.' })
        .waitFor();
      expect(await other.getByRole('switch', { name: 'Push notifications on this device' }).isDisabled()).toBe(true);
      await other.close();
    } finally {
      unconfigured();
    }
  });

  it('speaks German at phone width', async () => {
    const german = await rig.newPage({ locale: 'de-DE', width: 390, height: 844 });
    await stubPushManager(german.context(), pushWorld().browsers.origin);
    const userId = `push-de-${randomUUID()}`;
    await german.goto(`${rig.host.url}/app/#/settings`);
    await german.getByLabel('Bearer-Token').fill(await tokenFor(userId));
    await german.getByRole('button', { name: 'Anmelden' }).click();
    await german.getByRole('group', { name: 'Push auf diesem Gerät' }).waitFor();
    // No permission yet: switching on asks, and this headless browser refuses (as a member clicking "Block" would).
    expect(await notificationPermission(german)).toBe('default');
    await german.getByRole('switch', { name: 'Push-Benachrichtigungen auf diesem Gerät' }).click({ force: true });
    await german.getByTestId('push-device-state').filter({ hasText: 'Vom Browser blockiert' }).waitFor();
    expect(await notificationPermission(german)).toBe('denied');
    expect(await german.getByRole('switch', { name: 'Push-Benachrichtigungen auf diesem Gerät' }).isDisabled()).toBe(true);
    await screenshot(german, 'push-device-blocked-de');
    expect(await registrations(userId)).toEqual([]);

    // The member allows notifications in the browser's site settings and reloads.
    await german.context().grantPermissions(['notifications'], { origin: rig.host.url });
    await german.reload();
    await german.getByTestId('push-device-state').filter({ hasText: 'Aus:' }).waitFor();
    await german.getByRole('switch', { name: 'Push-Benachrichtigungen auf diesem Gerät' }).check({ force: true });
    await german.getByTestId('push-device-state').filter({ hasText: 'An: dieses Gerät erhält Push-Benachrichtigungen.' }).waitFor();
    expect(await registrations(userId)).toHaveLength(1);
    expect(await german.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await screenshot(german, 'push-device-on-de');
    await german.close();
  });
});
