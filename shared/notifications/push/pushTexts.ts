import { textOf } from '../../i18n/catalogue';
import type { Language } from '../contactSchemas';
import { NOTIFICATION_TEXTS } from '../../i18n/notificationTexts';

export interface PushItem {
  title: string;
  body: string | null;
}

/** More pushes than this due for one member at once (quiet hours ending) become one summary push. */
export const MAX_SEPARATE_PUSHES = 3;

// Lock screens show a line or two; a push service refuses payloads above 4 KB.
const MAX_TITLE = 120;
const MAX_BODY = 500;

/**
 * The pushes for the items due for one member, in their language. Pure. Up to
 * MAX_SEPARATE_PUSHES items go out one by one, as written by the producer; more become one push
 * ("5 neue Benachrichtigungen") listing the first titles, so a member whose quiet hours end
 * does not find a wall of pushes on the lock screen.
 */
export function renderPushes(language: Language, items: readonly PushItem[]): { title: string; body: string; items: number[] }[] {
  if (items.length <= MAX_SEPARATE_PUSHES) {
    return items.map((item, index) => ({ title: cut(item.title, MAX_TITLE), body: cut(item.body ?? '', MAX_BODY), items: [index] }));
  }
  const shown = items.slice(0, MAX_SEPARATE_PUSHES).map((item) => cut(item.title, 80));
  const body = [...shown, textOf(NOTIFICATION_TEXTS, 'push.more', language, { count: items.length - shown.length })].join(' · ');
  const title = textOf(NOTIFICATION_TEXTS, 'push.many', language, { count: items.length });
  return [{ title, body: cut(body, MAX_BODY), items: items.map((_, index) => index) }];
}

function cut(value: string, max: number): string {
  const line = value.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
