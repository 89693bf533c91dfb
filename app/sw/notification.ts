/**
 * What the service worker shows for a push, and where a click on it leads. Pure (no worker
 * globals), so unit tests reach it and the worker (sw.ts) only wires it to its events.
 *
 * The payload is what the delivery worker encrypts (shared/notifications/channels/webPush/webPushChannel.ts
 * `webPushPayload`): `{ title, body, silent, notificationIds }`, title and body already in the
 * member's language.
 */

/** Where the app lives; a click opens its inbox there. */
export const APP_PATH = '/app/';
export const INBOX_HASH = '#/inbox';

export interface ShownNotification {
  title: string;
  options: {
    body: string;
    /** Same inbox entries, same tag: a push sent again after a crash replaces the first one. */
    tag: string;
    silent: boolean;
    data: { notificationIds: string[]; url: string };
  };
}

// What the sender cuts to (pushTexts.ts); a longer one is not the server's and is not shown whole.
const MAX_TITLE = 120;
const MAX_BODY = 500;
const MAX_IDS = 1000;

/**
 * The notification for a push's text (`event.data.text()`), or null when it is not a payload the
 * service sends (not JSON, no title, ids that are not strings): such a push shows nothing.
 * Never throws.
 */
export function notificationFromPush(text: string | null | undefined): ShownNotification | null {
  if (typeof text !== 'string' || text === '') return null;
  let payload: unknown;
  try {
    payload = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return null;
  const { title, body, silent, notificationIds } = payload as Record<string, unknown>;
  if (typeof title !== 'string' || title.trim() === '') return null;
  if (body !== undefined && body !== null && typeof body !== 'string') return null;
  if (silent !== undefined && typeof silent !== 'boolean') return null;
  const ids = notificationIds ?? [];
  if (!Array.isArray(ids) || ids.length > MAX_IDS || !ids.every((id) => typeof id === 'string' && id !== '')) return null;
  return {
    title: title.slice(0, MAX_TITLE),
    options: {
      body: (body ?? '').slice(0, MAX_BODY),
      tag: tagOf(ids as string[], title),
      silent: silent === true,
      data: { notificationIds: ids as string[], url: `${APP_PATH}${INBOX_HASH}` },
    },
  };
}

/**
 * The page a click opens, absolute against the worker's scope: the URL the notification carries
 * when it is the app's own (same origin, under /app/), else the inbox. A notification's data is
 * the worker's own, but it is checked anyway: a click never leaves the app.
 */
export function clickTarget(data: unknown, scope: string): string {
  const inbox = new URL(`${APP_PATH}${INBOX_HASH}`, scope).href;
  const url = typeof data === 'object' && data !== null ? (data as { url?: unknown }).url : undefined;
  if (typeof url !== 'string') return inbox;
  let target: URL;
  try {
    target = new URL(url, scope);
  } catch {
    return inbox;
  }
  const base = new URL(APP_PATH, scope);
  return target.origin === base.origin && target.pathname.startsWith(base.pathname) ? target.href : inbox;
}

/** The window to reuse for a click: one already showing the app (the first focused one, else the first). */
export function windowToReuse<T extends { url: string; focused?: boolean }>(windows: readonly T[], scope: string): T | undefined {
  const base = new URL(APP_PATH, scope);
  const inApp = windows.filter((window) => {
    try {
      const url = new URL(window.url);
      return url.origin === base.origin && url.pathname.startsWith(base.pathname);
    } catch {
      return false;
    }
  });
  return inApp.find((window) => window.focused) ?? inApp[0];
}

function tagOf(ids: readonly string[], title: string): string {
  // The ids are the outbox's subject; a push without any (none today) collapses by its title.
  return `inbox:${ids.length > 0 ? ids.join(',') : title}`;
}
