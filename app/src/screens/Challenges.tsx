import { useState } from 'preact/hooks';
import { withQuery } from '../api';
import { t, type TextKey } from '../i18n';
import { hashOf, TABS, type Tab } from '../routes';
import type { ChallengeListItem, ChallengePage } from '../types';
import { Empty, ErrorBox, Loading, useApp, useLoad } from '../ui';
import { ChallengeCard } from './ChallengeCard';
import { PersonalGoal } from './PersonalGoal';

const STATUSES = ['available', 'active', 'completed', 'failed', 'cancelled'] as const;
const DIFFICULTIES = ['easy', 'medium', 'hard', 'expert'] as const;
const PAGE = 20;

/** Pages after the first, loaded with "Show more". */
interface MorePages {
  items: ChallengeListItem[];
  next?: string | null;
  loading: boolean;
  error?: unknown;
}

interface Filters {
  search: string;
  status: string;
  difficulty: string;
}

/**
 * The challenges in three tabs (global, club, personal) with search and the status and difficulty
 * filters. One list call per page of 20 carries each card's participation and team progress.
 */
export function Challenges(props: { tab: Tab }) {
  const { api } = useApp();
  const [filters, setFilters] = useState<Filters>({ search: '', status: '', difficulty: '' });
  const [searchDraft, setSearchDraft] = useState('');
  const [more, setMore] = useState<MorePages>({ items: [], loading: false });
  const listPath = (cursor?: string) =>
    withQuery('/api/challenges', {
      scope: props.tab,
      search: filters.search.trim(),
      status: filters.status,
      difficulty: filters.difficulty,
      limit: PAGE,
      cursor,
    });
  const { loaded, reload, set } = useLoad(() => {
    setMore({ items: [], loading: false });
    return api.get<ChallengePage>(listPath());
  }, [props.tab, filters.search, filters.status, filters.difficulty]);

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

  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title" tabIndex={-1}>
        {t('challenges.title')}
      </h1>
      <nav class="tabs" aria-label={t('tabs.label')}>
        {TABS.map((tab) => (
          <a class="tab" href={hashOf({ screen: 'challenges', tab })} aria-current={tab === props.tab ? 'page' : undefined} key={tab}>
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
          setFilters({ ...filters, search: searchDraft });
        }}
      >
        <label class="field field-grow">
          <span>{t('filter.search')}</span>
          <input type="search" value={searchDraft} maxLength={100} onInput={(event) => setSearchDraft(event.currentTarget.value)} />
        </label>
        <label class="field">
          <span>{t('filter.status')}</span>
          <select value={filters.status} onChange={(event) => setFilters({ ...filters, status: event.currentTarget.value })}>
            <option value="">{t('filter.any')}</option>
            {STATUSES.map((status) => (
              <option value={status} key={status}>
                {t(`status.${status}` as TextKey)}
              </option>
            ))}
          </select>
        </label>
        <label class="field">
          <span>{t('filter.difficulty')}</span>
          <select value={filters.difficulty} onChange={(event) => setFilters({ ...filters, difficulty: event.currentTarget.value })}>
            <option value="">{t('filter.any')}</option>
            {DIFFICULTIES.map((difficulty) => (
              <option value={difficulty} key={difficulty}>
                {t(`difficulty.${difficulty}`)}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" class="button button-secondary">
          {t('filter.apply')}
        </button>
      </form>
      {props.tab === 'personal' ? <PersonalGoal onCreated={reload} /> : null}
      {loaded.state === 'loading' ? <Loading /> : null}
      {loaded.state === 'error' ? <ErrorBox error={loaded.error} onRetry={reload} /> : null}
      {page && items.length === 0 ? (
        <Empty>
          <p>{filtered ? t('challenges.emptyFiltered') : props.tab === 'club' ? t('challenges.emptyClub') : t('challenges.empty')}</p>
        </Empty>
      ) : null}
      {items.length > 0 ? (
        <>
          <p class="small muted" role="status">
            {t('challenges.count', { count: items.length })}
          </p>
          <div class="cards" data-testid="challenge-list">
            {items.map((item) => (
              <ChallengeCard item={item} onChange={replace} key={item.id} />
            ))}
          </div>
        </>
      ) : null}
      {nextCursor ? (
        <button type="button" class="button button-secondary more" disabled={more.loading} onClick={() => void loadMore()}>
          {t('challenges.more')}
        </button>
      ) : null}
      {more.error ? <ErrorBox error={more.error} onRetry={() => void loadMore()} /> : null}
    </section>
  );
}
