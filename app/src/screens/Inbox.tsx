import { unlessGone, withQuery } from '../api';
import { formatDateTime, t } from '../i18n';
import type { InboxPage } from '../types';
import { useEffect, useState } from 'preact/hooks';
import { Empty, ErrorBox, LoadState, PagedList, Screen, useAction, useApp, usePaged } from '../ui';

const INBOX = '/api/notifications';
const PAGE = 50;

/**
 * The full inbox: read one, read all, delete one, delete all, with the canonical endpoints. After
 * "Mark read" the focus stays on the entry (on its "Delete", which takes the place of the button).
 */
export function Inbox() {
  const { api, refreshBell } = useApp();
  const paged = usePaged((cursor) => api.get<InboxPage>(withQuery(INBOX, { limit: PAGE, cursor })), []);
  const { loaded, reload, page, items } = paged;
  const action = useAction();
  /** The entry just marked read, whose "Delete" takes the focus once the list shows it read. */
  const [readId, setReadId] = useState<string | undefined>(undefined);
  useEffect(() => {
    const button = readId ? document.querySelector<HTMLElement>(`[data-read-id="${CSS.escape(readId)}"]`) : null;
    // Disabled while the action finishes, the button takes no focus yet: the next render tries again.
    button?.focus();
    if (button && document.activeElement === button) setReadId(undefined);
  });
  const act = (call: () => Promise<unknown>) =>
    action.run(async () => {
      try {
        // Deleting what is already gone is done; the reload shows the truth either way.
        await unlessGone(call());
      } finally {
        reload();
        refreshBell();
      }
    });

  return (
    <Screen title={t('inbox.title')}>
      {page ? (
        <div class="toolbar">
          <p role="status" class="small" data-testid="inbox-unread">
            {t('bell.unread', { count: page.unreadCount })}
          </p>
          <button
            type="button"
            class="button button-secondary"
            disabled={action.busy || page.unreadCount === 0}
            onClick={() => void act(() => api.send('POST', `${INBOX}/read-all`))}
          >
            {t('inbox.markAll')}
          </button>
          <button
            type="button"
            class="button button-danger"
            disabled={action.busy || items.length === 0}
            onClick={() => void act(() => api.send('DELETE', INBOX))}
          >
            {t('inbox.clear')}
          </button>
        </div>
      ) : null}
      {action.error ? <ErrorBox error={action.error} title={t('state.actionFailed')} /> : null}
      <LoadState loaded={loaded} onRetry={reload} />
      {page && items.length === 0 ? (
        <Empty>
          <p>{t('inbox.empty')}</p>
        </Empty>
      ) : null}
      <PagedList paged={paged} action={action} more={t('inbox.more')} class="inbox" testId="inbox-list">
        {(item) => (
          <li class={`card inbox-item tone-${item.tone} ${item.read ? 'read' : 'unread'}`} key={item.id} data-testid="inbox-item">
            <p class="inbox-title">
              {item.read ? null : (
                <span class="unread-dot">
                  <span class="visually-hidden">{t('inbox.unreadItem')}: </span>
                </span>
              )}
              {item.title}
            </p>
            {item.body ? <p>{item.body}</p> : null}
            <p class="small muted">
              <time dateTime={item.date}>{formatDateTime(item.date)}</time>
            </p>
            <div class="card-actions">
              {item.read ? null : (
                <button
                  type="button"
                  class="button button-small"
                  aria-label={`${t('inbox.markRead')}: ${item.title}`}
                  disabled={action.busy}
                  onClick={() => {
                    setReadId(item.id);
                    void act(() => api.send('POST', `${INBOX}/${encodeURIComponent(item.id)}/read`));
                  }}
                >
                  {t('inbox.markRead')}
                </button>
              )}
              <button
                type="button"
                class="button button-small button-secondary"
                aria-label={`${t('inbox.delete')}: ${item.title}`}
                disabled={action.busy}
                data-read-id={item.read ? item.id : undefined}
                onClick={() => void act(() => api.send('DELETE', `${INBOX}/${encodeURIComponent(item.id)}`))}
              >
                {t('inbox.delete')}
              </button>
            </div>
          </li>
        )}
      </PagedList>
    </Screen>
  );
}
