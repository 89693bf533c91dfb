import { useEffect, useRef, useState } from 'preact/hooks';
import { withQuery } from '../api';
import { t, type TextKey } from '../i18n';
import { DIFFICULTIES, hashOf, SEARCH_MAX, STATUSES, TABS, type ChallengesRoute, type Difficulty, type Status } from '../routes';
import type { ChallengeListItem, ChallengePage, MyClubs, ShooterLinkList } from '../types';
import { Empty, ErrorBox, LoadState, MoreButton, NoClub, Screen, useApp, useLoad } from '../ui';
import { Celebration } from './Celebration';
import { ChallengeCard } from './ChallengeCard';
import { PersonalGoal } from './PersonalGoal';

const PAGE = 20;
/** The API's largest page: reading the list again after an action covers what "Show more" added, up to this. */
const MAX_PAGE = 100;

/** Pages after the first, loaded with "Show more". */
interface MorePages {
  items: ChallengeListItem[];
  next?: string | null;
  loading: boolean;
  error?: unknown;
}

/**
 * The challenges in three tabs (global, club, personal) with search and the status and difficulty
 * filters. One list call per page of 20 carries each card's participation and team progress.
 * Tab and filters live in the hash (`#/challenges?tab=club&status=active&difficulty=hard&q=…`):
 * a change is a new history entry, so a reload, a shared link and "back" show the same list.
 */
export function Challenges(props: { route: ChallengesRoute }) {
  const { api } = useApp();
  const { route } = props;
  const filters = { search: route.q ?? '', status: route.status ?? '', difficulty: route.difficulty ?? '' };
  const navigate = (change: Partial<ChallengesRoute>) => {
    const next: ChallengesRoute = { ...route, ...change };
    firstPageSize.current = PAGE;
    for (const key of ['status', 'difficulty', 'q'] as const) if (!next[key]) delete next[key];
    const hash = hashOf(next);
    // The same search again (or on another tab, where it came along): the member asks for a fresh list.
    if (hash === location.hash) reload();
    else location.hash = hash;
  };
  const [searchDraft, setSearchDraft] = useState(filters.search);
  // "Back" to another search: the box shows the search of the list it shows.
  useEffect(() => setSearchDraft(filters.search), [filters.search]);
  const [more, setMore] = useState<MorePages>({ items: [], loading: false });
  /** How many cards the next read of the list asks for: all shown, after an action. */
  const firstPageSize = useRef(PAGE);
  const listPath = (cursor?: string) =>
    withQuery('/api/challenges', {
      scope: route.tab,
      search: filters.search.trim(),
      status: filters.status,
      difficulty: filters.difficulty,
      limit: cursor ? PAGE : firstPageSize.current,
      cursor,
    });
  const { loaded, reload, set } = useLoad(() => {
    setMore({ items: [], loading: false });
    return api.get<ChallengePage>(listPath());
  }, [route.tab, filters.search, filters.status, filters.difficulty]);
  // Whether the member's shots can count (a confirmed shooter record), and, on the club tab, whether they have a club at all.
  const links = useLoad(() => api.get<ShooterLinkList>('/api/challenges/shooter-links'), []);
  const linked = links.loaded.state === 'ready' ? links.loaded.data.items.some((link) => link.status === 'confirmed') : undefined;
  const clubs = useLoad(() => (route.tab === 'club' ? api.get<MyClubs>('/api/clubs/mine') : Promise.resolve(undefined)), [route.tab]);
  const noClub = clubs.loaded.state === 'ready' && clubs.loaded.data?.items.length === 0;

  const page = loaded.state === 'ready' ? loaded.data : undefined;
  const items = page ? [...page.items, ...more.items] : [];
  const nextCursor = more.items.length > 0 ? more.next : page?.nextCursor;
  const replace = (changed: ChallengeListItem) => {
    if (!page) return;
    const swap = (list: ChallengeListItem[]) => list.map((item) => (item.id === changed.id ? changed : item));
    set({ ...page, items: swap(page.items) });
    setMore((current) => ({ ...current, items: swap(current.items) }));
  };
  const loadMore = async () => {
    if (!nextCursor) return;
    setMore((current) => ({ ...current, loading: true, error: undefined }));
    try {
      const next = await api.get<ChallengePage>(listPath(nextCursor));
      setMore((current) => ({ items: [...current.items, ...next.items], next: next.nextCursor, loading: false }));
    } catch (error) {
      setMore((current) => ({ ...current, loading: false, error }));
    }
  };
  const filtered = filters.search !== '' || filters.status !== '' || filters.difficulty !== '';
  // An empty list says why only once it is known whether the member has a club (no flicker between the two).
  const empty = page !== undefined && items.length === 0 && clubs.loaded.state !== 'loading';
  const refresh = () => {
    firstPageSize.current = Math.min(MAX_PAGE, Math.max(PAGE, items.length));
    reload();
    links.reload();
  };
  const completions = items.flatMap((item) =>
    item.participation?.status === 'completed' && item.participation.finishedAt
      ? [
          {
            participationId: item.participation.id,
            finishedAt: item.participation.finishedAt,
            title: item.title,
            xp: item.participation.result?.xp ?? item.rewardXp,
            // The earned badge's artwork where this completion earned one.
            badge: item.participation.result?.badge ? item.rewardBadge : null,
          },
        ]
      : [],
  );

  return (
    <Screen title={t('challenges.title')}>
      <Celebration completions={completions} />
      <nav class="tabs" aria-label={t('tabs.label')}>
        {TABS.map((tab) => (
          <a class="tab" href={hashOf({ ...route, tab })} aria-current={tab === route.tab ? 'page' : undefined} key={tab}>
            {t(`tab.${tab}`)}
          </a>
        ))}
      </nav>
      <form
        class="filters"
        role="search"
        aria-label={t('filter.label')}
        onSubmit={(event) => {
          event.preventDefault();
          navigate({ q: searchDraft.trim() || undefined });
        }}
      >
        <label class="field field-grow">
          <span>{t('filter.search')}</span>
          <input type="search" value={searchDraft} maxLength={SEARCH_MAX} onInput={(event) => setSearchDraft(event.currentTarget.value)} />
        </label>
        <FilterSelect<Status>
          label={t('filter.status')}
          value={filters.status}
          values={STATUSES}
          text={(status) => t(`status.${status}` as TextKey)}
          onChange={(status) => navigate({ status })}
        />
        <FilterSelect<Difficulty>
          label={t('filter.difficulty')}
          value={filters.difficulty}
          values={DIFFICULTIES}
          text={(difficulty) => t(`difficulty.${difficulty}`)}
          onChange={(difficulty) => navigate({ difficulty })}
        />
        <button type="submit" class="button button-secondary">
          {t('filter.apply')}
        </button>
      </form>
      {route.tab === 'personal' ? <PersonalGoal onCreated={reload} /> : null}
      <LoadState loaded={loaded} onRetry={reload} />
      {empty && noClub ? <NoClub text={t('challenges.noClub')} /> : null}
      {empty && !noClub ? (
        <Empty>
          <p>{filtered ? t('challenges.emptyFiltered') : route.tab === 'club' ? t('challenges.emptyClub') : t('challenges.empty')}</p>
        </Empty>
      ) : null}
      {items.length > 0 ? (
        <>
          <p class="small muted" role="status">
            {t('challenges.count', { count: items.length })}
          </p>
          <div class="cards" data-testid="challenge-list">
            {items.map((item) => (
              <ChallengeCard item={item} onChange={replace} onActed={refresh} linked={linked} key={item.id} />
            ))}
          </div>
        </>
      ) : null}
      <MoreButton hasMore={Boolean(nextCursor)} busy={more.loading} onClick={() => void loadMore()}>
        {t('challenges.more')}
      </MoreButton>
      {more.error ? <ErrorBox error={more.error} onRetry={() => void loadMore()} /> : null}
    </Screen>
  );
}

/** A filter of the list: one of `values`, or any (""). */
function FilterSelect<V extends string>(props: {
  label: string;
  value: string;
  values: readonly V[];
  text: (value: V) => string;
  onChange: (value: V | undefined) => void;
}) {
  return (
    <label class="field">
      <span>{props.label}</span>
      <select value={props.value} onChange={(event) => props.onChange((event.currentTarget.value || undefined) as V | undefined)}>
        <option value="">{t('filter.any')}</option>
        {props.values.map((value) => (
          <option value={value} key={value}>
            {props.text(value)}
          </option>
        ))}
      </select>
    </label>
  );
}
