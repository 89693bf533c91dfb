import { ApiError, getJson } from '../api';
import { h, replace, type Child } from '../dom';
import { dateTime } from '../format';
import { t, type Key } from '../i18n';
import { planForm } from '../planForm';
import { fieldValue, recordsTable } from '../records';
import type { ClubOverview, Session } from '../types';
import { dataTable, loading, problemBox, runbookRef, section, tableWrap } from '../ui';
import { membersSection } from './clubMembers';
import type { MembersNotice } from '../leaderForm';
import { catalogStatus, clubStatus, freshnessWord } from '../words';

/** Members per page of the club's member list. */
export const MEMBERS_PAGE = 50;

/**
 * One club for an operator on a bad evening (incident rule 1, "open the club's host in the admin
 * portal"): freshness with the evening evaluated and its rule-6 interpretation, the box's
 * signals and pushes, the ingest of its topics with the incident context, its training plan
 * (editable with clubs.manage), catalog status and members. One call: GET …/clubs/{id}/overview.
 */
export async function clubPage(main: HTMLElement, session: Session, clubId: string): Promise<void> {
  const head = h('div', { class: 'page-head' }, h('h1', { tabindex: -1 }, t('nav.club')));
  const body = h('div', { class: 'stack' }, loading());
  main.append(head, body);
  const load = async (focus = false, saved = false, membersNotice?: MembersNotice) => {
    try {
      const overview = await getJson<ClubOverview>(`/api/admin/clubs/${encodeURIComponent(clubId)}/overview?limit=${MEMBERS_PAGE}`);
      const reload = h('button', { type: 'button', class: 'button button-secondary' }, t('club.reload'));
      reload.addEventListener('click', () => void load(true));
      replace(
        head,
        h(
          'div',
          {},
          h(
            'h1',
            { tabindex: -1, 'data-testid': 'club-name' },
            overview.club.name,
            ' ',
            badge(overview.club.status, clubStatus(overview.club.status)),
          ),
          h(
            'p',
            { class: 'muted small' },
            overview.club.vereinsId ? t('club.number', { number: overview.club.vereinsId }) : t('club.noNumber'),
            ' · ',
            t('club.generatedAt', { time: dateTime(overview.generatedAt) }),
          ),
        ),
        reload,
      );
      replace(
        body,
        storySection(overview),
        freshnessSection(overview),
        boxSection(overview),
        ingestSection(overview),
        planSection(overview, session, saved, () => void load(false, true)),
        catalogSection(overview),
        membersSection(overview, session, membersNotice, (notice) => void load(false, false, notice)),
      );
      if (focus) head.querySelector<HTMLElement>('h1')?.focus();
      // After a save the confirmation takes focus, so keyboard users stay at the plan.
      if (saved) body.querySelector<HTMLElement>('[data-testid="plan-saved"]')?.focus();
      if (membersNotice) body.querySelector<HTMLElement>('[data-testid="members-notice"]')?.focus();
    } catch (error) {
      replace(body, problemBox(error instanceof ApiError && error.status === 404 ? t('club.notFound') : t('nav.club'), error));
    }
  };
  await load();
}

function badge(kind: string, text: string): HTMLElement {
  return h('span', { class: `badge badge-${kind}` }, text);
}

/** A two-column table of labelled values (th scope=row). */
function facts(label: string, rows: [string, Child, string?][]): HTMLElement {
  return tableWrap(
    h(
      'table',
      { class: 'fields' },
      h(
        'tbody',
        {},
        rows.map(([name, value, testId]) =>
          h('tr', testId ? { 'data-testid': testId } : {}, h('th', { scope: 'row' }, name), h('td', {}, value)),
        ),
      ),
    ),
    label,
  );
}

function freshnessSection({ freshness, story }: ClubOverview): HTMLElement {
  const title = t('club.freshness.title');
  if (!freshness.checked || !freshness.entry) {
    return section(
      'club-freshness',
      title,
      h('p', { 'data-testid': 'club-not-checked' }, t(`club.freshness.notChecked.${freshness.notCheckedReason ?? 'inactive'}` as Key)),
    );
  }
  const entry = freshness.entry;
  // The story's cause first, so this reading never contradicts the rest of the page.
  const hint = story.cause
    ? t(`cause.${story.cause}`)
    : entry.hint
      ? t(`diag.hint.${entry.hint.code}` as Key)
      : entry.status === 'ok'
        ? t('diag.freshness.okText')
        : entry.status === 'error'
          ? t('diag.freshness.arrivalInFuture')
          : '–';
  return section(
    'club-freshness',
    title,
    facts(title, [
      [t('club.freshness.status'), badge(entry.status, t(`diag.status.${entry.status}` as Key)), 'club-status'],
      [
        t('club.freshness.interpretation'),
        h('strong', { 'data-hint': entry.hint?.code ?? '', 'data-cause': story.cause ?? '' }, hint),
        'club-hint',
      ],
      [t('club.freshness.evening'), `${dateTime(entry.evening.start)} – ${dateTime(entry.evening.end)}`],
      [t('club.freshness.plan'), entry.planSource === 'assumed' ? t('diag.freshness.planAssumed') : t('diag.freshness.planStored')],
      [t('club.freshness.lastArrival'), dateTime(entry.lastArrivalAt)],
      [t('club.freshness.since'), dateTime(entry.since)],
    ]),
  );
}

/**
 * What is going on with the club, in one story: the most likely cause with its step, then every
 * status word the page's sections repeat (freshness, pushes, consent, quarantine, dead letters),
 * all read from the same derivation (`story` of the answer).
 */
function storySection({ story }: ClubOverview): HTMLElement {
  const title = t('story.title');
  const pushes = story.pushes
    ? `${t('diag.boxPushes.clubMaster')}: ${t(`push.${story.pushes.clubMaster}`)}; ${t('diag.boxPushes.starterlists')}: ${t(`push.${story.pushes.starterlists}`)}`
    : t('story.pushesUnknown');
  return section(
    'club-story',
    title,
    story.cause
      ? h(
          'div',
          {
            class: `alert alert-${story.tone === 'danger' ? 'danger' : 'warning'}`,
            'data-testid': 'club-cause',
            'data-cause': story.cause,
          },
          h('p', { class: 'alert-title' }, `${t('story.cause')}: ${t(`cause.${story.cause}`)}`),
          h('p', {}, h('strong', {}, `${t('story.step')}: `), t(`cause.step.${story.cause}`)),
        )
      : h('p', { class: 'alert alert-ok', 'data-testid': 'club-cause', 'data-cause': '' }, t('story.ok')),
    facts(title, [
      [t('story.freshness'), freshnessWord(story.freshness), 'story-freshness'],
      [t('story.pushes'), pushes, 'story-pushes'],
      [t('story.consent'), t(`diag.consent.${story.consent}`), 'story-consent'],
      [t('story.quarantine'), story.quarantined ? t('story.quarantined') : t('story.notQuarantined'), 'story-quarantine'],
      [
        t('story.deadLetters'),
        story.deadLetters > 0 ? t('story.deadLetterCount', { count: story.deadLetters }) : t('story.noDeadLetters'),
        'story-dead-letters',
      ],
    ]),
  );
}

function pushCell(state: string, lastAcceptedAt: string | null, extra?: string): Child {
  return [
    h('span', { class: `badge badge-push-${state}`, 'data-push': state }, t(`push.${state}` as Key)),
    lastAcceptedAt ? h('span', { class: 'muted small' }, ` ${t('club.box.lastAccepted', { time: dateTime(lastAcceptedAt) })}`) : null,
    extra ? h('br') : null,
    extra ? h('span', { class: 'small' }, extra) : null,
  ];
}

function boxSection({ box }: ClubOverview): HTMLElement {
  const title = t('club.box.title');
  const result = box.clubMaster.result;
  const check = box.boxCheck;
  const checkText = !check
    ? t('club.box.checkNever')
    : t(check.hitsAfterEvening ? 'club.box.checkHits' : 'club.box.checkNone', {
        time: dateTime(check.checkedAt),
        evening: dateTime(check.eveningStart),
      });
  const lists = box.starterlists.recent;
  return section(
    'club-box',
    title,
    facts(title, [
      [t('club.box.tokens'), t('club.box.tokenCounts', { active: box.edgeTokens.active, revoked: box.edgeTokens.revoked })],
      [t('club.box.lastUse'), dateTime(box.edgeTokens.lastUsedAt), 'box-last-use'],
      [
        t('club.box.clubMaster'),
        pushCell(box.clubMaster.state, box.clubMaster.lastAcceptedAt, result ? t('club.box.result', { ...result }) : undefined),
        'box-club-master',
      ],
      [t('club.box.starterlists'), pushCell(box.starterlists.state, box.starterlists.lastAcceptedAt), 'box-starterlists'],
      [t('club.box.lastStarterlist'), dateTime(box.starterlists.lastStarterlistSeenAt)],
      [t('club.box.check'), checkText, 'box-check'],
      [t('club.box.consent'), t(`diag.consent.${box.consent.state}` as Key)],
    ]),
    h('p', { class: 'muted small' }, t('club.box.stateNote', { hours: box.staleAfterHours })),
    lists.length
      ? h(
          'details',
          {},
          h('summary', {}, `${t('club.box.recent')} (${lists.length})`),
          tableWrap(
            dataTable(
              {},
              (['list', 'listDate', 'discipline', 'starters', 'seen'] as const).map((c) => t(`club.box.${c}`)),
              lists.map((list) =>
                h(
                  'tr',
                  {},
                  h('th', { scope: 'row' }, list.name ?? list.listId),
                  h('td', {}, list.listDate),
                  h('td', {}, list.discipline),
                  h('td', { class: 'num' }, String(list.startersCount)),
                  h('td', {}, dateTime(list.lastSeenAt)),
                ),
              ),
            ),
            t('club.box.recent'),
          ),
        )
      : null,
  );
}

const REJECT_COLUMNS = ['rejectedAt', 'topic', 'entity', 'reason', 'detail', 'partitionId', 'sequenceNumber'] as const;
const DEAD_COLUMNS = ['deadAt', 'topic', 'entity', 'sqlState', 'detail', 'sequenceNumber', 'replayAttempts', 'replayedAt'] as const;

function ingestSection(overview: ClubOverview): HTMLElement | null {
  const { ingest, club } = overview;
  if (!ingest) {
    return club.vereinsId === null
      ? section('club-ingest', t('club.ingest.title', { prefix: 'club.–.' }), h('p', { class: 'muted' }, t('club.ingest.noNumber')))
      : null;
  }
  const title = t('club.ingest.title', { prefix: ingest.topicPrefix });
  const context: HTMLElement[] = [];
  if (ingest.quarantine) {
    context.push(
      ingestAlert(
        {
          tone: 'danger',
          testId: 'club-quarantine',
          title: t('club.ingest.quarantine'),
          step: t('diag.step.quarantined'),
          section: 'Quarantined',
        },
        prefixed('quarantine', ingest.quarantine),
      ),
    );
  }
  if (ingest.drift) {
    context.push(
      ingestAlert(
        { tone: 'warning', testId: 'club-drift', title: t('club.ingest.drift'), step: t('diag.step.drift'), section: 'Drift suspected' },
        [
          ['sourceDriftState', ingest.drift.state],
          ['sourceDriftDetail', ingest.drift.detail],
        ],
      ),
    );
  }
  if (ingest.lastReject) {
    context.push(
      h(
        'div',
        { 'data-testid': 'club-last-reject' },
        h('h3', {}, t('club.ingest.lastReject')),
        notes(prefixed('lastContractReject', ingest.lastReject)),
      ),
    );
  }
  return section(
    'club-ingest',
    title,
    context.length ? h('div', {}, h('h3', {}, t('club.ingest.context')), ...context) : h('p', { class: 'muted' }, t('club.ingest.none')),
    h('h3', {}, t('club.ingest.rejects')),
    ingest.rejects.length
      ? recordsTable(REJECT_COLUMNS, ingest.rejects, t('club.ingest.rejects'), { testId: 'club-rejects' })
      : h('p', { class: 'muted' }, t('club.ingest.noRejects')),
    h(
      'h3',
      {},
      ingest.deadLetters.recent.length
        ? t('club.ingest.deadLetters', { pending: ingest.deadLetters.pending })
        : t('club.ingest.noDeadLetters'),
    ),
    ingest.deadLetters.recent.length
      ? recordsTable(DEAD_COLUMNS, ingest.deadLetters.recent, t('diag.deadLetters.recent'), { testId: 'club-dead-letters' })
      : null,
  );
}

/** Raw field names and values for copy-paste into an incident note. */
/** A club's ingest alert: what happened, the step to take with its section of the runbook, and the fields to note. */
function ingestAlert(
  alert: { tone: 'danger' | 'warning'; testId: string; title: string; step: string; section: string },
  facts: [string, unknown][],
): HTMLElement {
  return h(
    'div',
    { class: `alert alert-${alert.tone}`, role: alert.tone === 'danger' ? 'alert' : 'status', 'data-testid': alert.testId },
    h('p', { class: 'alert-title' }, alert.title),
    h('p', {}, alert.step, ' ', runbookRef(alert.section)),
    notes(facts),
  );
}

/** A record's fields under the ingest health's names for them: `quarantine` and `since` is `quarantineSince`. */
function prefixed(prefix: string, record: object): [string, unknown][] {
  return Object.entries(record).map(([name, value]) => [`${prefix}${name[0]?.toUpperCase() ?? ''}${name.slice(1)}`, value]);
}

function notes(entries: [string, unknown][]): HTMLElement {
  return h(
    'dl',
    { class: 'notes' },
    entries.map(([name, value]) => [h('dt', {}, h('code', {}, name)), h('dd', {}, fieldValue(name, value))]),
  );
}

function planSection(overview: ClubOverview, session: Session, saved: boolean, reload: () => void): HTMLElement {
  const plan = overview.trainingPlan;
  const host = h('div', {});
  const show = () => {
    const editable = session.capabilities.includes('clubs.manage');
    const edit = editable
      ? h('button', { type: 'button', class: 'button button-secondary', 'data-testid': 'plan-edit' }, t('club.plan.edit'))
      : null;
    edit?.addEventListener('click', () => {
      replace(
        host,
        planForm(
          plan,
          () => reload(),
          () => {
            show();
            host.querySelector<HTMLElement>('[data-testid="plan-edit"]')?.focus();
          },
        ),
      );
      host.querySelector<HTMLElement>('input, select')?.focus();
    });
    replace(
      host,
      saved
        ? h('div', { class: 'alert alert-ok', role: 'status', tabindex: -1, 'data-testid': 'plan-saved' }, h('p', {}, t('club.plan.saved')))
        : null,
      h('p', {}, plan.planSource === 'assumed' ? t('club.plan.assumed') : t('club.plan.stored', { time: dateTime(plan.updatedAt) })),
      tableWrap(
        dataTable(
          { 'data-testid': 'plan' },
          (['weekday', 'start', 'end', 'timeZone'] as const).map((c) => t(`club.plan.${c}`)),
          plan.evenings.map((evening) =>
            h(
              'tr',
              {},
              h('th', { scope: 'row' }, t(`weekday.${evening.weekday}` as Key)),
              h('td', {}, evening.start),
              h('td', {}, evening.endsNextDay ? `${evening.end} (+1)` : evening.end),
              h('td', {}, plan.timeZone),
            ),
          ),
        ),
        t('club.plan.title'),
      ),
      edit,
    );
  };
  show();
  return section('club-plan', t('club.plan.title'), host);
}

function catalogSection({ catalog }: ClubOverview): HTMLElement {
  const title = t('club.catalog.title');
  return section(
    'club-catalog',
    title,
    facts(title, [
      [t('club.catalog.status'), badge(catalog.status, catalogStatus(catalog.status))],
      [t('club.catalog.boxes'), String(catalog.reportingBoxes), 'catalog-boxes'],
      [t('club.catalog.lastSeen'), dateTime(catalog.lastSeenAt)],
      [t('club.catalog.names'), catalog.reportedNames.join(', ') || '–'],
    ]),
    h('p', {}, h('a', { href: '#/diagnostics' }, t('club.catalog.toCatalog'))),
  );
}
