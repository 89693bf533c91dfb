/**
 * The app's screens as hash routes (`#/challenges?tab=club`): the server serves one index.html,
 * so every screen is a hash and a reload or a shared link opens the same screen. Pure, so unit
 * tests import it.
 */
export const TABS = ['global', 'club', 'personal'] as const;
export type Tab = (typeof TABS)[number];
/** The list's filters, as the API takes them (`status`, `difficulty`); `q` is its `search`. */
export const STATUSES = ['available', 'active', 'completed', 'failed', 'cancelled'] as const;
export type Status = (typeof STATUSES)[number];
export const DIFFICULTIES = ['easy', 'medium', 'hard', 'expert'] as const;
export type Difficulty = (typeof DIFFICULTIES)[number];
/** As long as the API's search may be. */
export const SEARCH_MAX = 100;

/** The challenges screen with its tab and filters, all in the hash, so a reload and "back" keep them. */
export interface ChallengesRoute {
  screen: 'challenges';
  tab: Tab;
  status?: Status;
  difficulty?: Difficulty;
  q?: string;
}

export type Route =
  | ChallengesRoute
  | { screen: 'leaderboard'; challengeId: string; board: 'global' | 'club' }
  | { screen: 'profile' }
  | { screen: 'inbox' }
  | { screen: 'settings' }
  | { screen: 'shooter' }
  | { screen: 'join'; code: string }
  | { screen: 'confirm-email'; token: string }
  | { screen: 'clubs' }
  | { screen: 'club'; clubId: string }
  | { screen: 'member'; userId: string };

export const NAV_SCREENS = ['challenges', 'profile', 'clubs', 'inbox', 'settings', 'shooter'] as const;

/** Reads a location hash; anything unknown is the challenges screen (the app's start). */
export function parseRoute(hash: string): Route {
  const [path = '', search = ''] = hash.replace(/^#/, '').split('?', 2);
  const query = new URLSearchParams(search);
  const parts = path.split('/').filter(Boolean);
  switch (parts[0]) {
    case 'leaderboard':
      if (parts[1]) {
        return {
          screen: 'leaderboard',
          challengeId: decodeURIComponent(parts[1]),
          board: query.get('board') === 'club' ? 'club' : 'global',
        };
      }
      break;
    case 'profile':
    case 'inbox':
    case 'settings':
    case 'shooter':
      return { screen: parts[0] };
    case 'join':
      return { screen: 'join', code: query.get('code') ?? '' };
    case 'confirm-email':
      return { screen: 'confirm-email', token: query.get('token') ?? '' };
    case 'clubs':
      return { screen: 'clubs' };
    case 'club':
      return parts[1] ? { screen: 'club', clubId: decodeURIComponent(parts[1]) } : { screen: 'clubs' };
    case 'member':
      if (parts[1]) return { screen: 'member', userId: decodeURIComponent(parts[1]) };
      break;
  }
  return challengesRoute(query);
}

/** The tab and filters of a query; a value the list does not know is left out, as if not given. */
function challengesRoute(query: URLSearchParams): ChallengesRoute {
  const pick = <T extends string>(values: readonly T[], value: string | null): T | undefined =>
    (values as readonly string[]).includes(value ?? '') ? (value as T) : undefined;
  const route: ChallengesRoute = { screen: 'challenges', tab: pick(TABS, query.get('tab')) ?? 'global' };
  const status = pick(STATUSES, query.get('status'));
  const difficulty = pick(DIFFICULTIES, query.get('difficulty'));
  const q = (query.get('q') ?? '').trim().slice(0, SEARCH_MAX);
  if (status) route.status = status;
  if (difficulty) route.difficulty = difficulty;
  if (q) route.q = q;
  return route;
}

/** The hash of a route (the inverse of parseRoute). */
export function hashOf(route: Route): string {
  switch (route.screen) {
    case 'challenges': {
      const query = new URLSearchParams({ tab: route.tab });
      if (route.status) query.set('status', route.status);
      if (route.difficulty) query.set('difficulty', route.difficulty);
      if (route.q) query.set('q', route.q);
      return `#/challenges?${query.toString()}`;
    }
    case 'leaderboard':
      return `#/leaderboard/${encodeURIComponent(route.challengeId)}?board=${route.board}`;
    case 'join':
      return `#/join?code=${encodeURIComponent(route.code)}`;
    case 'confirm-email':
      return `#/confirm-email?token=${encodeURIComponent(route.token)}`;
    case 'club':
      return `#/club/${encodeURIComponent(route.clubId)}`;
    case 'member':
      return `#/member/${encodeURIComponent(route.userId)}`;
    default:
      return `#/${route.screen}`;
  }
}
