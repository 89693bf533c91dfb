import { useEffect, useState } from 'preact/hooks';
import type { Api } from './api';
import { t } from './i18n';
import { hashOf } from './routes';
import type { InboxPage } from './types';

const REFRESH_MS = 60_000;

/**
 * The bell in the header: the unread count (read every minute, after inbox actions and when
 * `round` changes) on a link to the inbox. Its accessible name says the count.
 */
export function Bell(props: { api: Api; round: number }) {
  const [unread, setUnread] = useState<number | undefined>(undefined);
  useEffect(() => {
    let current = true;
    const read = () =>
      props.api.get<InboxPage>('/api/notifications?limit=1').then(
        (page) => current && setUnread(page.unreadCount),
        () => undefined, // the count stays as it was; the inbox screen shows errors
      );
    void read();
    const timer = setInterval(() => void read(), REFRESH_MS);
    return () => {
      current = false;
      clearInterval(timer);
    };
  }, [props.api, props.round]);
  const count = unread ?? 0;
  return (
    <a class="bell" href={hashOf({ screen: 'inbox' })} aria-label={`${t('bell.label')}: ${t('bell.unread', { count })}`} data-testid="bell">
      <svg class="bell-icon" viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false">
        <path d="M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22Zm7-6V11a7 7 0 0 0-5.5-6.84V3a1.5 1.5 0 0 0-3 0v1.16A7 7 0 0 0 5 11v5l-2 2v1h18v-1Z" />
      </svg>
      {count > 0 ? (
        <span class="bell-count" data-testid="bell-count">
          {count > 99 ? '99+' : count}
        </span>
      ) : null}
    </a>
  );
}
