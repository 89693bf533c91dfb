import { getJson } from '../api';
import { h, replace } from '../dom';
import { dateTime } from '../format';
import { t, type Key } from '../i18n';
import type { ClubOverview, Session } from '../types';
import { leaderForm, undoButton, type MembersNotice } from '../leaderForm';
import { dataTable, problemBox, section, tableWrap } from '../ui';

type MembersPage = NonNullable<ClubOverview['members']>;

/**
 * A person as people know them: the name from their profile, the user id only as the small print
 * beneath it (to search a log with); someone who never opened the member app has no name yet.
 */
function personCell(person: { userId: string; displayName: string | null }): HTMLElement[] {
  return [
    person.displayName ? h('span', { class: 'person-name' }, person.displayName) : h('span', { class: 'muted' }, t('club.members.noName')),
    h('br'),
    h('code', { class: 'muted small' }, person.userId),
  ];
}

/** The leaders on the page shown: the picker does not appoint them again. */
function leadersOn(page: MembersPage): Set<string> {
  return new Set(page.items.filter((item) => item.role === 'leader').map((item) => item.userId));
}

/** The sentence after an appointment (with Undo) or an undo; it takes focus, so keyboard users stay here. */
function noticeBox(notice: MembersNotice, reload: (notice: MembersNotice) => void): HTMLElement {
  const box = h('div', { class: 'alert alert-ok', role: 'status', tabindex: -1, 'data-testid': 'members-notice' });
  box.append(h('p', {}, notice.text, notice.undo ? [' ', undoButton(notice.undo, reload, box)] : null));
  return box;
}

/**
 * The club's members and leaders (clubs.manage), read-only, leaders first, paged with
 * Previous/Next through the same overview call (its limit and offset page the members).
 */
export function membersSection(
  overview: ClubOverview,
  session: Session,
  notice: MembersNotice | undefined,
  reload: (notice: MembersNotice) => void,
): HTMLElement {
  const title = t('club.members.title');
  if (!overview.members || !session.capabilities.includes('clubs.manage')) {
    return section('club-members', title, h('p', { class: 'muted' }, t('club.members.hidden')));
  }
  const host = h('div', {});
  const clubId = overview.club.clubId;
  const show = (page: MembersPage) => {
    const previous = h('button', { type: 'button', class: 'button button-secondary' }, t('common.previous'));
    const next = h('button', { type: 'button', class: 'button button-secondary' }, t('common.next'));
    previous.disabled = page.offset === 0;
    next.disabled = page.nextOffset === null;
    const go = (offset: number, button: HTMLButtonElement) => {
      button.disabled = true;
      getJson<ClubOverview>(`/api/admin/clubs/${encodeURIComponent(clubId)}/overview?limit=${page.limit}&offset=${offset}`)
        .then((fresh) => {
          if (fresh.members) show(fresh.members);
          host.querySelector<HTMLElement>('.table-wrap')?.focus();
        })
        .catch((error: unknown) => host.append(problemBox(title, error)));
    };
    previous.addEventListener('click', () => go(Math.max(0, page.offset - page.limit), previous));
    next.addEventListener('click', () => go(page.nextOffset ?? page.offset, next));
    replace(
      host,
      h('p', { 'data-testid': 'members-summary' }, t('club.members.summary', { total: page.total, leaders: page.leaders })),
      page.leaders === 0 ? h('div', { class: 'alert alert-warning', role: 'status' }, h('p', {}, t('club.members.noLeader'))) : null,
      page.items.length
        ? tableWrap(
            dataTable(
              { 'data-testid': 'members' },
              (['person', 'role', 'since'] as const).map((c) => t(`club.members.${c}`)),
              page.items.map((item) =>
                h(
                  'tr',
                  { 'data-user': item.userId },
                  h('th', { scope: 'row' }, personCell(item)),
                  h('td', {}, item.role === 'leader' ? h('strong', {}, t('role.leader')) : t(`role.${item.role}` as Key)),
                  h('td', {}, dateTime(item.since)),
                ),
              ),
            ),
            title,
          )
        : h('p', { class: 'muted' }, t('club.members.none')),
      page.total > page.limit ? h('div', { class: 'pager' }, previous, next) : null,
    );
  };
  show(overview.members);
  return section(
    'club-members',
    title,
    notice ? noticeBox(notice, reload) : null,
    host,
    leaderForm(clubId, overview.club.name, leadersOn(overview.members), overview.members.leaders === 0, reload),
  );
}
