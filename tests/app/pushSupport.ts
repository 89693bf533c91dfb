import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import { waitInPage } from '../support/chromium';

// The browser-side code below is JavaScript in strings: the tests compile for Node, without the DOM's types.

/** Where the stubbed PushManager keeps this origin's subscription (so a reload still has it). */
const STORED = 'test.pushSubscription';

/** Runs in every page: `PushManager`'s subscribe and getSubscription as a browser with a push service has them. */
const STUB = `(({ origin, stored }) => {
  if (!('PushManager' in window)) return;
  const toBase64Url = (bytes) =>
    btoa(String.fromCharCode(...new Uint8Array(bytes))).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
  const fromBase64Url = (text) =>
    Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (char) => char.charCodeAt(0)).buffer;
  const subscriptionOf = (value) => ({
    endpoint: value.endpoint,
    expirationTime: null,
    options: { userVisibleOnly: true, applicationServerKey: fromBase64Url(value.applicationServerKey) },
    getKey: (name) => fromBase64Url(value.keys[name]),
    toJSON: () => ({ endpoint: value.endpoint, expirationTime: null, keys: value.keys }),
    unsubscribe: () => {
      localStorage.removeItem(stored);
      return Promise.resolve(true);
    },
  });
  PushManager.prototype.getSubscription = function () {
    const raw = localStorage.getItem(stored);
    return Promise.resolve(raw ? subscriptionOf(JSON.parse(raw)) : null);
  };
  PushManager.prototype.subscribe = async function (options) {
    if (Notification.permission !== 'granted') throw new DOMException('Registration failed - permission denied', 'NotAllowedError');
    if (!options || options.userVisibleOnly !== true || !options.applicationServerKey) {
      throw new DOMException('userVisibleOnly and applicationServerKey are required', 'NotAllowedError');
    }
    const key = options.applicationServerKey;
    const keyBytes = typeof key === 'string' ? fromBase64Url(key) : ArrayBuffer.isView(key) ? new Uint8Array(key.buffer, key.byteOffset, key.byteLength) : key;
    const pair = await crypto.subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, true, ['deriveBits']);
    const value = {
      endpoint: origin + '/push/' + crypto.randomUUID(),
      keys: {
        p256dh: toBase64Url(await crypto.subtle.exportKey('raw', pair.publicKey)),
        auth: toBase64Url(crypto.getRandomValues(new Uint8Array(16))),
      },
      applicationServerKey: toBase64Url(keyBytes),
    };
    localStorage.setItem(stored, JSON.stringify(value));
    return subscriptionOf(value);
  };
})`;

/**
 * Headless Chromium reaches no real push service, so `pushManager.subscribe` cannot succeed there.
 * This replaces PushManager's `subscribe` and `getSubscription` in every page of the context with
 * what a browser does: refuse without notification permission or `userVisibleOnly`, else make a
 * P-256 key pair and a 16-byte auth secret with WebCrypto and answer a PushSubscription-shaped
 * object whose endpoint is on `pushOrigin` (the Web Push fake's). The subscription, with the
 * applicationServerKey it was made for, stays in the origin's localStorage (storedSubscription).
 */
export async function stubPushManager(context: BrowserContext, pushOrigin: string): Promise<void> {
  await context.addInitScript({ content: `${STUB}(${JSON.stringify({ origin: pushOrigin, stored: STORED })});` });
}

export interface StoredSubscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
  applicationServerKey: string;
}

/** The subscription the stub holds in this page's origin, or null. */
export async function storedSubscription(page: Page): Promise<StoredSubscription | null> {
  const raw = await page.evaluate<string | null>(`localStorage.getItem(${JSON.stringify(STORED)})`);
  return raw ? (JSON.parse(raw) as StoredSubscription) : null;
}

/**
 * The DevTools protocol's push delivery to the page's service worker: the worker's `push` event
 * gets `data` as its text, as if a push service had delivered (and the browser decrypted) it.
 */
export async function pushDelivery(page: Page, scope: string): Promise<{ deliver(data: string): Promise<void>; close(): Promise<void> }> {
  const cdp: CDPSession = await page.context().newCDPSession(page);
  const registrationId = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const found = registrations.find((registration) => registration.scopeURL === scope && !registration.isDeleted);
      if (found) resolve(found.registrationId);
    });
  });
  await cdp.send('ServiceWorker.enable');
  const id = await registrationId;
  const origin = new URL(scope).origin;
  return {
    async deliver(data) {
      await cdp.send('ServiceWorker.deliverPushMessage', { origin, registrationId: id, data });
    },
    close: () => cdp.detach(),
  };
}

export interface ShownNotification {
  title: string;
  body: string;
  tag: string;
  data: unknown;
}

const SHOWN = `navigator.serviceWorker.ready
  .then((registration) => registration.getNotifications())
  .then((items) => items.map((item) => ({ title: item.title, body: item.body, tag: item.tag, data: item.data })))`;

/**
 * Waits until the app's service worker shows `count` notifications titled `title`. Polled, not read
 * once: headless Chromium's list of shown notifications now and then misses an entry for a moment.
 */
export async function waitForTitle(page: Page, title: string, count = 1): Promise<void> {
  await waitInPage(page, `${SHOWN}.then((items) => items.filter((item) => item.title === ${JSON.stringify(title)}).length === ${count})`);
}

/** Waits until the app's service worker shows exactly this notification (title, body, tag and data). */
export async function waitForNotification(page: Page, expected: ShownNotification): Promise<void> {
  const wanted = JSON.stringify(expected);
  await waitInPage(
    page,
    `${SHOWN}.then((items) => items.some((item) => JSON.stringify({ title: item.title, body: item.body, tag: item.tag, data: item.data }) === ${JSON.stringify(wanted)}))`,
  );
}

/** The scope of the service worker that controls the app's pages. */
export function workerScope(page: Page): Promise<string> {
  return page.evaluate<string>('navigator.serviceWorker.ready.then((registration) => registration.scope)');
}

/** The page's notification permission: granted, denied or default. */
export function notificationPermission(page: Page): Promise<string> {
  return page.evaluate<string>('Notification.permission');
}

const RECORDER = `(() => {
  self.__shown = [];
  if (self.__recording) return;
  self.__recording = true;
  const show = self.registration.showNotification.bind(self.registration);
  self.registration.showNotification = (title, options = {}) => {
    self.__shown.push({ title, body: options.body, tag: options.tag, data: options.data });
    return show(title, options);
  };
})()`;

/**
 * What the app's service worker asks the browser to show, in order, from now on: its
 * `registration.showNotification` is wrapped in the running worker (through Playwright's handle on
 * it) to record each call before passing it on. The browser's own list (`getNotifications`) is
 * what the member sees, but headless Chromium's notification display may drop entries, so exact
 * assertions ("nothing for a malformed push", "a repeat replaces") read this record.
 */
export async function recordShown(context: BrowserContext, scriptUrl: string): Promise<{ calls(): Promise<ShownNotification[]> }> {
  const instances = () => context.serviceWorkers().filter((candidate) => candidate.url() === scriptUrl);
  if (instances().length === 0) await context.waitForEvent('serviceworker', { predicate: (candidate) => candidate.url() === scriptUrl });
  // Every listed instance gets the recorder: one the browser stopped may still be listed for a
  // moment beside the one that handles the next push.
  for (const worker of instances()) await worker.evaluate(RECORDER).catch(() => undefined);
  return {
    calls: async () => {
      const calls: ShownNotification[] = [];
      for (const worker of instances()) {
        calls.push(...(await worker.evaluate<ShownNotification[]>('self.__shown ? self.__shown.splice(0) : []').catch(() => [])));
      }
      return calls;
    },
  };
}

/** The worker's recorded calls (`recordShown`) up to the first titled `title`, read until it comes (15 s). */
export async function recordedUntil(shown: { calls(): Promise<ShownNotification[]> }, title: string): Promise<ShownNotification[]> {
  const calls: ShownNotification[] = [];
  const deadline = Date.now() + 15_000;
  while (!calls.some((call) => call.title === title)) {
    if (Date.now() > deadline) throw new Error(`the service worker showed no "${title}" within 15 s; it showed: ${JSON.stringify(calls)}`);
    calls.push(...(await shown.calls()));
    if (!calls.some((call) => call.title === title)) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return calls;
}
