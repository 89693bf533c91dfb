import type { Api } from './api';
import { whyUnsupported } from './pushReasons';

/**
 * "Push on this device": the browser's push subscription for the member app and its registration
 * at the service (POST/GET/DELETE /api/user/push-registrations, docs/notifications.md#push).
 * The service worker (app/sw/sw.ts) shows what arrives.
 */

/** What the switch shows. */
export type PushState =
  | 'unsupported' // no service worker, Push API or notifications in this browser
  | 'ios' // an iPhone or iPad browser tab: push only for the app added to the Home Screen and opened from there
  | 'unavailable' // the service has no Web Push key (not configured)
  | 'blocked' // the member (or the browser) denied notifications for this site
  | 'off'
  | 'on';

const WORKER_URL = '/app/sw.js';
const SCOPE = '/app/';
/** The registration id this browser's subscription has at the service, to find and remove it. */
const REGISTRATION_KEY = 'app.pushRegistration';
/** How long signing out waits for the registration's removal. */
const SIGN_OUT_WAIT_MS = 3000;

interface Registration {
  id: string;
}

export function pushSupported(): boolean {
  return 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

async function publicKey(api: Api): Promise<string | null> {
  return (await api.get<{ publicKey: string | null }>('/api/user/push-registrations/web-push-key')).publicKey;
}

async function workerRegistration(): Promise<ServiceWorkerRegistration> {
  await navigator.serviceWorker.register(WORKER_URL, { scope: SCOPE });
  return navigator.serviceWorker.ready;
}

async function currentSubscription(): Promise<PushSubscription | null> {
  const registration = await navigator.serviceWorker.getRegistration(SCOPE);
  return registration ? registration.pushManager.getSubscription() : null;
}

/**
 * The state now: "on" only when this browser has a subscription AND the signed-in member has it
 * registered (a shared browser whose subscription belongs to someone else, or was removed
 * elsewhere, is "off" for this member until they switch it on).
 */
export async function pushState(api: Api): Promise<PushState> {
  if (!pushSupported()) {
    return whyUnsupported({
      userAgent: navigator.userAgent,
      maxTouchPoints: navigator.maxTouchPoints,
      standalone: matchMedia('(display-mode: standalone)').matches || (navigator as { standalone?: boolean }).standalone === true,
    });
  }
  if ((await publicKey(api)) === null) return 'unavailable';
  if (Notification.permission === 'denied') return 'blocked';
  const stored = localStorage.getItem(REGISTRATION_KEY);
  if (!stored || Notification.permission !== 'granted' || !(await currentSubscription())) return 'off';
  const mine = await api.get<{ items: Registration[] }>('/api/user/push-registrations?limit=50');
  return mine.items.some((item) => item.id === stored) ? 'on' : 'off';
}

/**
 * Switches push on: asks for permission (call it from a click: browsers refuse to ask otherwise),
 * subscribes with the service's key and registers the subscription. Answers the new state.
 */
export async function enablePush(api: Api): Promise<PushState> {
  const permission = Notification.permission === 'granted' ? 'granted' : await Notification.requestPermission();
  if (permission === 'denied') return 'blocked';
  if (permission !== 'granted') return 'off'; // dismissed: ask again on the next click
  const key = await publicKey(api);
  if (key === null) return 'unavailable';
  const registration = await workerRegistration();
  let subscription = await registration.pushManager.getSubscription();
  if (subscription && !sameKey(subscription.options.applicationServerKey, key)) {
    // Made with an earlier key (the service rotated it): the push service would refuse our pushes.
    await subscription.unsubscribe();
    subscription = null;
  }
  subscription ??= await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: base64UrlBytes(key) });
  const saved = await api.send<Registration>('POST', '/api/user/push-registrations', {
    platform: 'webpush',
    subscription: subscription.toJSON(),
  });
  localStorage.setItem(REGISTRATION_KEY, saved.id);
  return 'on';
}

/** Switches push off: the registration goes (a 404 means it already has) and the browser unsubscribes. */
export async function disablePush(api: Api): Promise<PushState> {
  const stored = localStorage.getItem(REGISTRATION_KEY);
  if (stored) {
    await api.send('DELETE', `/api/user/push-registrations/${encodeURIComponent(stored)}`).catch((error: unknown) => {
      if ((error as { status?: number }).status !== 404) throw error;
    });
    localStorage.removeItem(REGISTRATION_KEY);
  }
  await (await currentSubscription())?.unsubscribe();
  return Notification.permission === 'denied' ? 'blocked' : 'off';
}

/**
 * Signing out takes this browser's push registration with it: on a shared device the next person
 * must not see the member's notifications. Best effort, and it never holds the sign-out up for
 * more than a few seconds.
 */
export async function releasePushOnSignOut(api: Api): Promise<void> {
  if (!pushSupported() || localStorage.getItem(REGISTRATION_KEY) === null) return;
  const release = disablePush(api).catch(async () => {
    // The service could not be told: once the browser unsubscribes, the push service answers 410
    // and the delivery removes the stale registration then.
    localStorage.removeItem(REGISTRATION_KEY);
    await (await currentSubscription())?.unsubscribe();
  });
  await Promise.race([release.catch(() => undefined), new Promise((resolve) => setTimeout(resolve, SIGN_OUT_WAIT_MS))]);
}

function base64UrlBytes(value: string): Uint8Array<ArrayBuffer> {
  const base64 = value
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(value.length / 4) * 4, '=');
  return Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
}

function sameKey(current: ArrayBuffer | null, key: string): boolean {
  if (!current) return true; // the browser does not say: keep the subscription
  const expected = base64UrlBytes(key);
  const actual = new Uint8Array(current);
  return actual.length === expected.length && actual.every((byte, index) => byte === expected[index]);
}
