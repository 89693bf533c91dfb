/// <reference lib="webworker" />
/**
 * The member app's service worker (served as /app/sw.js, scope /app/): shows the pushes the
 * delivery worker sends (shared/notifications/channels/webPush/webPushChannel.ts) and opens the inbox when one
 * is clicked. It handles no fetches: the app works as before without it.
 */
import { clickTarget, notificationFromPush, windowToReuse } from './notification';

declare const self: ServiceWorkerGlobalScope;

self.addEventListener('install', () => {
  // A new version takes over at once: it holds no caches that an open tab could depend on.
  void self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

self.addEventListener('push', (event) => {
  let text: string | null = null;
  try {
    text = event.data ? event.data.text() : null;
  } catch {
    text = null;
  }
  const shown = notificationFromPush(text);
  // A push that is not the service's shows nothing (and is not worth an error in the console).
  if (shown) event.waitUntil(self.registration.showNotification(shown.title, shown.options));
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = clickTarget(event.notification.data, self.registration.scope);
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const open = windowToReuse(windows, self.registration.scope);
      if (open) {
        const focused = await open.focus();
        // navigate() works only on windows this worker controls; an uncontrolled one is just focused.
        await focused.navigate(url).catch(() => undefined);
        return;
      }
      await self.clients.openWindow(url);
    })(),
  );
});
