import { h } from './dom';
import { t } from './i18n';

/** The hash route of a club's page. */
export function clubHref(clubId: string): string {
  return `#/clubs/${encodeURIComponent(clubId)}`;
}

/** A club's name linking to its page, with an accessible name that says where it leads. */
export function clubLink(clubId: string, name: string): HTMLAnchorElement {
  return h('a', { href: clubHref(clubId), 'data-club-link': clubId, title: t('club.link', { name }) }, name);
}
