import { getJson, send } from './api';
import { h, replace, s } from './dom';
import { dateTime } from './format';
import { t } from './i18n';
import type { InboxPage } from './types';
import { problemBox } from './ui';

const INBOX = '/api/notifications';
const REFRESH_MS = 60_000;

/**
 * The notification bell: the unread count on the button, and a panel with the newest entries and
 * read / read all / delete, all through the inbox endpoints. Escape closes the panel and returns
 * focus to the bell. Returns the element and a stop function for the refresh timer.
 */
export function notificationBell(): { element: HTMLElement; stop: () => void } {
  const count = h('span', { class: 'bell-count', 'data-testid': 'bell-count' }, '0');
  const button = h(
    'button',
    { type: 'button', class: 'bell', 'aria-expanded': 'false', 'aria-controls': 'bell-panel', 'data-testid': 'bell' },
    s(
      'svg',
      { class: 'bell-icon', viewBox: '0 0 24 24', width: 20, height: 20, 'aria-hidden': 'true', focusable: 'false' },
      s('path', {
        d: 'M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22Zm7-6V11a7 7 0 0 0-5.5-6.84V3a1.5 1.5 0 0 0-3 0v1.16A7 7 0 0 0 5 11v5l-2 2v1h18v-1Z',
      }),
    ),
    h('span', { class: 'visually-hidden' }, t('bell.label')),
    count,
  );
  const list = h('div', { class: 'bell-list' });
  const markAll = h('button', { type: 'button', class: 'button button-small button-secondary' }, t('bell.markAll'));
  const close = h('button', { type: 'button', class: 'button button-small button-secondary' }, t('bell.close'));
  const panel = h(
    'div',
    { id: 'bell-panel', class: 'bell-panel', role: 'region', 'aria-labelledby': 'bell-title', hidden: true, 'data-testid': 'bell-panel' },
    h('div', { class: 'bell-head' }, h('h2', { id: 'bell-title', tabindex: -1 }, t('bell.title')), markAll, close),
    list,
  );

  let page: InboxPage | undefined;
  const render = () => {
    const unread = page?.unreadCount ?? 0;
    count.textContent = String(unread);
    count.hidden = unread === 0;
    button.setAttribute('aria-label', `${t('bell.label')}: ${t('bell.unread', { count: unread })}`);
    markAll.disabled = unread === 0;
    if (!page) return;
    if (page.items.length === 0) return replace(list, h('p', { class: 'muted' }, t('bell.empty')));
    replace(
      list,
      h(
        'ul',
        { class: 'inbox' },
        page.items.map((item) => {
          const actions = [
            item.read
              ? null
              : h(
                  'button',
                  {
                    type: 'button',
                    class: 'button button-small',
                    onclick: () => void act(() => send('POST', `${INBOX}/${encodeURIComponent(item.id)}/read`)),
                  },
                  t('bell.markRead'),
                ),
            h(
              'button',
              {
                type: 'button',
                class: 'button button-small button-secondary',
                onclick: () => void act(() => send('DELETE', `${INBOX}/${encodeURIComponent(item.id)}`)),
              },
              t('bell.delete'),
            ),
          ];
          return h(
            'li',
            { class: `inbox-item tone-${item.tone} ${item.read ? 'read' : 'unread'}`, 'data-id': item.id },
            h(
              'p',
              { class: 'inbox-title' },
              item.read ? null : h('span', { class: 'unread-dot' }, h('span', { class: 'visually-hidden' }, `${t('bell.unreadItem')}: `)),
              item.title,
            ),
            item.body ? h('p', { class: 'inbox-body' }, item.body) : null,
            h('p', { class: 'muted small' }, h('time', { datetime: item.date }, dateTime(item.date))),
            h('div', { class: 'inbox-actions' }, actions),
          );
        }),
      ),
    );
  };

  const refresh = async () => {
    try {
      page = await getJson<InboxPage>(`${INBOX}?limit=20`);
      render();
    } catch (error) {
      replace(list, problemBox(t('bell.failed'), error));
    }
  };
  const act = async (action: () => Promise<unknown>) => {
    try {
      await action();
    } catch (error) {
      // 404 on delete means it is gone already: the refresh shows the truth either way.
      if ((error as { status?: number }).status !== 404) replace(list, problemBox(t('bell.failed'), error));
    }
    await refresh();
    // The button pressed may be gone (re-rendered list) or disabled: keep focus inside the panel.
    if (!panel.hidden && !panel.contains(document.activeElement)) panel.querySelector<HTMLElement>('h2')?.focus();
  };
  const setOpen = (open: boolean) => {
    panel.hidden = !open;
    button.setAttribute('aria-expanded', String(open));
    if (open) {
      void refresh();
      panel.querySelector<HTMLElement>('h2')?.focus();
    }
  };
  button.addEventListener('click', () => setOpen(Boolean(panel.hidden)));
  close.addEventListener('click', () => {
    setOpen(false);
    button.focus();
  });
  markAll.addEventListener('click', () => void act(() => send('POST', `${INBOX}/read-all`)));
  const onKey = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && !panel.hidden) {
      setOpen(false);
      button.focus();
    }
  };
  document.addEventListener('keydown', onKey);

  render();
  void refresh();
  const timer = setInterval(() => void refresh(), REFRESH_MS);
  return {
    element: h('div', { class: 'bell-wrap' }, button, panel),
    stop: () => {
      clearInterval(timer);
      document.removeEventListener('keydown', onKey);
    },
  };
}
