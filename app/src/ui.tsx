import { createContext, type ComponentChildren } from 'preact';
import { useCallback, useContext, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, type Api } from './api';
import { t } from './i18n';
import type { Named } from './contracts';
import { avatarColour, initialsOf, nameOf } from './person';
import { problemText } from './problemText';
import { hashOf } from './routes';

export interface AppContextValue {
  api: Api;
  userId: string;
  /** Asks the header's bell to read the unread count again (after an inbox action). */
  refreshBell: () => void;
  /** Ends the session as the header's button does, this browser's push registration with it. */
  signOut: () => Promise<void>;
}
export const AppContext = createContext<AppContextValue | undefined>(undefined);

export function useApp(): AppContextValue {
  const value = useContext(AppContext);
  if (!value) throw new Error('useApp outside the signed-in app');
  return value;
}

export type Loaded<T> = { state: 'loading' } | { state: 'ready'; data: T } | { state: 'error'; error: unknown };

/**
 * Runs `load` when `keys` change (showing the loading state); `reload` runs it again keeping the
 * data on screen until the new answer is there (so a form and its message stay put); `set`
 * replaces the data (after an action that answered it).
 */
export function useLoad<T>(load: () => Promise<T>, keys: unknown[]) {
  const [loaded, setLoaded] = useState<Loaded<T>>({ state: 'loading' });
  const [round, setRound] = useState(0);
  const keysKey = JSON.stringify(keys);
  const shownFor = useRef<string | undefined>(undefined);
  useEffect(() => {
    let current = true;
    if (shownFor.current !== keysKey) setLoaded({ state: 'loading' });
    shownFor.current = keysKey;
    load().then(
      (data) => current && setLoaded({ state: 'ready', data }),
      (error: unknown) => current && setLoaded({ state: 'error', error }),
    );
    return () => {
      current = false;
    };
  }, [keysKey, round]);
  const reload = useCallback(() => setRound((value) => value + 1), []);
  const set = useCallback((data: T) => setLoaded({ state: 'ready', data }), []);
  return { loaded, reload, set };
}

/** A screen: a section named by its heading, which takes the focus after navigating (App.tsx). */
export function Screen(props: { title: ComponentChildren; children?: ComponentChildren }) {
  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title" tabIndex={-1}>
        {props.title}
      </h1>
      {props.children}
    </section>
  );
}

/** What a `useLoad` shows until its data is there: the loading state, or the error with "Try again". */
export function LoadState(props: { loaded: Loaded<unknown>; onRetry: () => void }) {
  if (props.loaded.state === 'loading') return <Loading />;
  if (props.loaded.state === 'error') return <ErrorBox error={props.loaded.error} onRetry={props.onRetry} />;
  return null;
}

/** Paging by cursor: the first page from `useLoad` (`page`), further pages appended by "Show more" (`more`). */
export function usePaged<P extends { items: unknown[]; nextCursor: string | null }>(
  load: (cursor?: string) => Promise<P>,
  keys: unknown[],
) {
  type Item = P['items'][number];
  const [extra, setExtra] = useState<{ items: Item[]; next: string | null | undefined }>({ items: [], next: undefined });
  const { loaded, reload } = useLoad(() => {
    setExtra({ items: [], next: undefined });
    return load();
  }, keys);
  const page = loaded.state === 'ready' ? loaded.data : undefined;
  const next = extra.next === undefined ? page?.nextCursor : extra.next;
  const more = async () => {
    if (!next) return;
    const following = await load(next);
    setExtra((current) => ({ items: [...current.items, ...following.items], next: following.nextCursor }));
  };
  const items: Item[] = page ? [...page.items, ...extra.items] : [];
  return { loaded, reload, page, items, next, more };
}

export function Loading() {
  return (
    <p class="state state-loading" role="status" data-testid="loading">
      <span class="spinner" aria-hidden="true" />
      {t('state.loading')}
    </p>
  );
}

/** What went wrong, as a sentence in the member's language (problemText), with the request id for support. */
export function ErrorBox(props: { error: unknown; onRetry?: () => void; title?: string }) {
  const error = props.error;
  return (
    <div class="state state-error" role="alert" data-testid="error">
      <p class="state-title">{props.title ?? t('state.error')}</p>
      <p>{problemText(error)}</p>
      {error instanceof ApiError && error.requestId ? (
        <p class="small muted">
          {t('state.requestId')}: <code>{error.requestId}</code>
        </p>
      ) : null}
      {props.onRetry ? (
        <button type="button" class="button button-secondary" onClick={props.onRetry}>
          {t('state.retry')}
        </button>
      ) : null}
    </div>
  );
}

/** A list paged by cursor (usePaged): the items so far, the next page's cursor, and how to load it. */
export interface Paged<Item> {
  items: Item[];
  next: string | null | undefined;
  more: () => Promise<void>;
}

/**
 * The items of a paged list and, while there is a next page, its "more" button. The next page
 * loads as one of the screen's actions (`action`), so a failure shows where theirs do.
 */
export function PagedList<Item>(props: {
  paged: Paged<Item>;
  action: { busy: boolean; run: (work: () => Promise<void>) => Promise<void> };
  more: string;
  class: string;
  testId?: string;
  children: (item: Item) => ComponentChildren;
}) {
  const { paged, action } = props;
  return (
    <>
      {paged.items.length > 0 ? (
        <ul class={props.class} data-testid={props.testId}>
          {paged.items.map(props.children)}
        </ul>
      ) : null}
      <MoreButton hasMore={Boolean(paged.next)} busy={action.busy} onClick={() => void action.run(paged.more)}>
        {props.more}
      </MoreButton>
    </>
  );
}

/** The "more" button under a paged list: shown only while the list has a next page. */
export function MoreButton(props: { hasMore: boolean; busy: boolean; onClick: () => void; children: ComponentChildren }) {
  if (!props.hasMore) return null;
  return (
    <button type="button" class="button button-secondary more" disabled={props.busy} onClick={props.onClick}>
      {props.children}
    </button>
  );
}

/**
 * A card section with a load of its own: heading, loading and error states, then `children`.
 * Nothing at all where the service does not offer the part yet (404): the screen goes without it.
 */
export function LoadedSection(props: {
  loaded: Loaded<unknown>;
  onRetry: () => void;
  name: string;
  title: string;
  children?: ComponentChildren;
}) {
  const { loaded } = props;
  if (loaded.state === 'error' && loaded.error instanceof ApiError && loaded.error.status === 404) return null;
  return (
    <section class={`card ${props.name}`} aria-labelledby={`${props.name}-title`} data-testid={props.name}>
      <h2 id={`${props.name}-title`}>{props.title}</h2>
      <LoadState loaded={loaded} onRetry={props.onRetry} />
      {props.children}
    </section>
  );
}

/** For a member in no club: `text`, and the way to join one with an invitation code. */
export function NoClub(props: { text: string }) {
  return (
    <Empty>
      <p>{props.text}</p>
      <a class="button" href={hashOf({ screen: 'join', code: '' })}>
        {t('join.title')}
      </a>
    </Empty>
  );
}

export function Empty(props: { children: ComponentChildren }) {
  return (
    <div class="state state-empty" data-testid="empty">
      {props.children}
    </div>
  );
}

/** A labelled switch (a checkbox underneath, so keyboard and screen readers know it). */
export function Toggle(props: {
  label: string;
  checked: boolean;
  disabled?: boolean;
  onChange: (checked: boolean) => void;
  testId?: string;
  /** Names the switch for the focus to return to after its change (ChallengeCard). */
  action?: string;
  /** Says why the switch is disabled (the id of a sentence beside it). */
  describedBy?: string;
}) {
  return (
    <label class="toggle">
      <input
        type="checkbox"
        role="switch"
        checked={props.checked}
        disabled={props.disabled}
        data-testid={props.testId}
        data-action={props.action}
        aria-describedby={props.describedBy}
        onChange={(event) => props.onChange(event.currentTarget.checked)}
      />
      <span class="toggle-track" aria-hidden="true" />
      <span>{props.label}</span>
    </label>
  );
}

export function ProgressBar(props: { percent: number; label: string }) {
  return (
    <div class="bar" role="progressbar" aria-label={props.label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={props.percent}>
      <span class="bar-fill" style={{ width: `${props.percent}%` }} />
    </div>
  );
}

/** Runs an action, keeping its error to show beside the control that started it. */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const run = useCallback(async (action: () => Promise<void>) => {
    setBusy(true);
    setError(undefined);
    try {
      await action();
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  }, []);
  /** A form's submit handler: no page load, then `action` runs. */
  const submit = useCallback(
    (action: () => Promise<void>) => (event: Event) => {
      event.preventDefault();
      void run(action);
    },
    [run],
  );
  return { busy, error, run, submit, clearError: () => setError(undefined) };
}

/** A ranking (a challenge's board, the XP ladder): rank, member, a figure and a word per row (`children`). */
export function BoardTable(props: { caption: string; figure: string; last: string; children: ComponentChildren }) {
  return (
    <table class="board">
      <caption class="visually-hidden">{props.caption}</caption>
      <thead>
        <tr>
          <th scope="col">{t('leaderboard.rank')}</th>
          <th scope="col">{t('leaderboard.member')}</th>
          <th scope="col" class="number">
            {props.figure}
          </th>
          <th scope="col">{props.last}</th>
        </tr>
      </thead>
      <tbody>{props.children}</tbody>
    </table>
  );
}

/**
 * A board's or ladder's name cell: "you" for the member's own row (saying when others do not see
 * it), else the other member's avatar and name linking to their page.
 */
export function BoardNameCell(props: { row: Named & { isOwn: boolean; hiddenFromOthers?: boolean } }) {
  const { row } = props;
  return (
    <td>
      {row.isOwn ? (
        <>
          <Avatar person={row} />
          <strong>{t('leaderboard.you')}</strong>
        </>
      ) : (
        <PersonLink person={row} />
      )}
      {row.isOwn && row.hiddenFromOthers ? <span class="small muted"> ({t('leaderboard.hidden')})</span> : null}
    </td>
  );
}

/** A person's initials on their colour; decorative, their name is always written beside it. */
export function Avatar(props: { person: Named; large?: boolean }) {
  return (
    <span
      class={props.large ? 'avatar avatar-large' : 'avatar'}
      style={{ backgroundColor: avatarColour(props.person.userId) }}
      aria-hidden="true"
      data-testid="avatar"
    >
      {initialsOf(props.person)}
    </span>
  );
}

/** The person's name (a neutral word while they have none), never their user id. */
export function personName(person: Named): string {
  return nameOf(person, t('person.unknown'));
}

/** Avatar and name, linking to the person's page. */
export function PersonLink(props: { person: Named }) {
  return (
    <a class="person" href={hashOf({ screen: 'member', userId: props.person.userId })}>
      <Avatar person={props.person} />
      {personName(props.person)}
    </a>
  );
}

/**
 * A question before something that cannot be undone: the consequence in words, then "yes" and
 * "cancel" (or Escape). It takes the focus when it opens; the caller puts it back on cancel.
 */
export function Confirm(props: { question: string; yes: string; busy: boolean; onYes: () => void; onCancel: () => void; testId?: string }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => box.current?.focus(), []);
  return (
    <div
      class="confirm"
      role="alertdialog"
      aria-label={props.question}
      tabIndex={-1}
      ref={box}
      data-testid={props.testId ?? 'confirm'}
      onKeyDown={(event) => event.key === 'Escape' && props.onCancel()}
    >
      <p>{props.question}</p>
      <div class="row">
        <button type="button" class="button button-danger" disabled={props.busy} onClick={props.onYes}>
          {props.yes}
        </button>
        <button type="button" class="button button-secondary" onClick={props.onCancel}>
          {t('club.cancel')}
        </button>
      </div>
    </div>
  );
}
