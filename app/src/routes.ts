/**
 * The app's screens as hash routes (`#/challenges?tab=club`): the server serves one index.html,
 * so every screen is a hash and a reload or a shared link opens the same screen. Pure, so unit
 * tests import it.
 */
export const TABS = ['global', 'club', 'personal'] as const;
export type Tab = (typeof TABS)[number];

export type Route =
  | { screen: 'challenges'; tab: Tab }
  | { screen: 'leaderboard'; challengeId: string; board: 'global' | 'club' }
  | { screen: 'profile' }
  | { screen: 'inbox' }
  | { screen: 'settings' }
  | { screen: 'shooter' }
  | { screen: 'join'; code: string }
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
    case 'clubs':
      return { screen: 'clubs' };
    case 'club':
      return parts[1] ? { screen: 'club', clubId: decodeURIComponent(parts[1]) } : { screen: 'clubs' };
    case 'member':
      if (parts[1]) return { screen: 'member', userId: decodeURIComponent(parts[1]) };
      break;
  }
  const tab = query.get('tab');
  return { screen: 'challenges', tab: (TABS as readonly string[]).includes(tab ?? '') ? (tab as Tab) : 'global' };
}

/** The hash of a route (the inverse of parseRoute). */
export function hashOf(route: Route): string {
  switch (route.screen) {
    case 'challenges':
      return `#/challenges?tab=${route.tab}`;
    case 'leaderboard':
      return `#/leaderboard/${encodeURIComponent(route.challengeId)}?board=${route.board}`;
    case 'join':
      return `#/join?code=${encodeURIComponent(route.code)}`;
    case 'club':
      return `#/club/${encodeURIComponent(route.clubId)}`;
    case 'member':
      return `#/member/${encodeURIComponent(route.userId)}`;
    default:
      return `#/${route.screen}`;
  }
}
