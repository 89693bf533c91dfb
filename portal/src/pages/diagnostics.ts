import { getJson, send } from '../api';
import { h, replace } from '../dom';
import { dateTime } from '../format';
import { t, type Key } from '../i18n';
import { clubLink } from '../links';
import { outcomeTable } from '../deliveryOutcomes';
import { catalogStatus, channelName } from '../words';
import { fieldValue, recordsTable } from '../records';
import { groupIngestFields, highlightedFields, incidentNoteFields, ingestAttention, ingestState } from '../runbook';
import { problemList } from '../problemList';
import type { AdoptResult, CatalogEntry, CatalogPage, ClubFreshness, ClubStoryView, DiagnosticsSummary, IngestHealth } from '../types';
import { dataTable, loading, problemBox, runbookRef, section, tableWrap } from '../ui';

/** Problems shown unfolded on the incident view; the rest fold under a count, so the page stays within about two screens. */
const DIAGNOSTICS_PROBLEMS_SHOWN = 5;
/** Clubs per page of the freshness table, worst first. */
const FRESHNESS_PAGE = 50;

/**
 * Diagnostics for platform admins as an incident view: the open problems worst first, the clubs
 * (failing pushes, freshness with each club's most likely cause), delivery per channel and
 * reason, the ingest state with its step and the fields to note, the raw ingest record under
 * "details", and (with clubs.manage) the club catalog with the adopt action, read when opened.
 */
export async function diagnosticsPage(main: HTMLElement, capabilities: readonly string[]): Promise<void> {
  const summaryHost = h('div', { class: 'stack' }, loading());
  const reload = h('button', { type: 'button', class: 'button button-secondary' }, t('diag.reload'));
  main.append(h('div', { class: 'page-head' }, h('h1', { tabindex: -1 }, t('diag.title')), reload), summaryHost);
  const catalogHost = h('div');
  if (capabilities.includes('clubs.manage')) main.append(catalogHost);

  const loadSummary = async () => {
    replace(summaryHost, loading());
    try {
      const summary = await getJson<DiagnosticsSummary>(`/api/admin/diagnostics/summary?limit=${FRESHNESS_PAGE}`);
      replace(
        summaryHost,
        h('p', { class: 'muted small' }, t('diag.generatedAt', { time: dateTime(summary.generatedAt) })),
        section('problems-title', t('board.title'), problemList(summary.problems, { shown: DIAGNOSTICS_PROBLEMS_SHOWN })),
        summary.boxPushes.failing > 0 ? boxPushBlock(summary.boxPushes) : null,
        freshnessBlock(summary.dataFreshness, storiesOf(summary.clubStories), summary.boxPushes),
        deliveryBlock(summary.delivery),
        ingestBlock(summary.ingest, clubPages(summary.namedClubs)),
        deadLetterBlock(summary.deadLetters, clubPages(summary.namedClubs)),
      );
    } catch (error) {
      replace(summaryHost, problemBox(t('diag.title'), error));
    }
  };
  reload.addEventListener('click', () => void loadSummary());
  if (capabilities.includes('clubs.manage')) catalogBlock(catalogHost);
  await loadSummary();
}

/** Club numbers (as the ingest records name clubs) to a link to the service club's page, when there is one. */
type ClubPages = (number: unknown) => HTMLElement | null;
function clubPages(named: DiagnosticsSummary['namedClubs']): ClubPages {
  const byNumber = new Map(named.map((club) => [club.vereinsId, club]));
  return (number) => {
    const club = typeof number === 'string' ? byNumber.get(number) : undefined;
    return club ? h('span', { class: 'club-ref' }, ' → ', clubLink(club.clubId, club.name)) : null;
  };
}
const CLUB_NUMBER_FIELDS = new Set(['quarantineClubId', 'lastContractRejectClubId', 'clubId']);

/** A field's value, followed by a link to the club's page when the field names a club number of a service club. */
function withClubLink(field: string, raw: unknown, pages: ClubPages, strong = false): (string | HTMLElement | null)[] {
  const text = fieldValue(field, raw);
  return [strong ? h('strong', {}, text) : text, CLUB_NUMBER_FIELDS.has(field) ? pages(raw) : null];
}

function ingestBlock(health: IngestHealth, pages: ClubPages): HTMLElement {
  const attention = ingestAttention(health);
  const marked = highlightedFields(health);
  // Grouped by concern; raw field names and values stay for copy-paste into an incident note.
  const fieldGroups = h(
    'div',
    { class: 'field-groups', 'data-testid': 'ingest-fields' },
    groupIngestFields(health).map((group) => {
      const title = t(`diag.group.${group.id}` as Key);
      const table = dataTable(
        { class: 'fields', 'data-group': group.id },
        [t('diag.ingest.field'), t('diag.ingest.value')],
        group.fields.map((field) =>
          h(
            'tr',
            { class: marked.has(field) ? 'highlight' : '', 'data-field': field },
            h('th', { scope: 'row' }, h('code', {}, field)),
            h('td', {}, withClubLink(field, health[field], pages, marked.has(field))),
          ),
        ),
      );
      return h('div', { class: 'field-group' }, h('h3', {}, title), tableWrap(table, title));
    }),
  );
  const state = ingestState(health);
  const headline = h(
    'p',
    { class: `ingest-state state-${state}`, 'data-testid': 'ingest-state', 'data-state': state },
    t('diag.ingest.state'),
    ' ',
    h('strong', {}, t(`diag.headline.${state}` as Key)),
  );

  const banner =
    health.status === 'unknown'
      ? h('div', { class: 'alert alert-info', role: 'status' }, h('p', {}, t('diag.ingest.unknown')))
      : attention.length === 0
        ? h('div', { class: 'alert alert-ok', role: 'status' }, h('p', {}, t('diag.ingest.ok')))
        : h(
            'div',
            { class: `alert alert-${attention[0]?.severity ?? 'warning'}`, role: 'alert', 'data-testid': 'ingest-attention' },
            h('p', { class: 'alert-title' }, t('diag.ingest.attention')),
            h(
              'ul',
              { class: 'steps' },
              attention.map((item) =>
                h('li', { 'data-state': item.kind }, h('strong', {}, t(`diag.state.${item.kind}` as Key)), ' — ', runbookRef(item.section)),
              ),
            ),
            // The problem list above gives the short steps; the incident rules in full on demand, one fold for all.
            h(
              'details',
              {},
              h('summary', {}, t('ingest.rule')),
              attention.map((item) =>
                h('p', {}, h('strong', {}, t(`diag.state.${item.kind}` as Key)), ': ', t(`diag.step.${item.kind}` as Key)),
              ),
            ),
          );

  // Incident rules 1 and 2: what to note for the open conditions, gathered in one place.
  const noteFields = incidentNoteFields(health);
  const notes = noteFields.length
    ? h(
        'dl',
        { class: 'notes', 'aria-label': t('diag.ingest.notes'), 'data-testid': 'ingest-notes' },
        noteFields.map((field) => [h('dt', {}, h('code', {}, field)), h('dd', {}, withClubLink(field, health[field], pages))]),
      )
    : null;

  const rejects = health.recentRejects?.length
    ? h(
        'details',
        {},
        h('summary', {}, `${t('diag.ingest.rejects')} (${health.recentRejects.length})`),
        recordsTable(REJECT_COLUMNS, health.recentRejects, t('diag.ingest.rejects'), {
          cell: (name, row) => withClubLink(name, row[name], pages),
        }),
      )
    : null;

  // Backfills running, or finished within 24 h: open while one runs.
  const backfills = health.backfills?.length
    ? h(
        'details',
        { 'data-testid': 'ingest-backfills', open: health.backfills.some((backfill) => backfill['state'] === 'running') },
        h('summary', {}, `${t('diag.ingest.backfills')} (${health.backfills.length})`),
        recordsTable(BACKFILL_COLUMNS, health.backfills, t('diag.ingest.backfills'), {
          cell: (name, backfill) =>
            name === 'state' && backfill['stale'] === true
              ? h('strong', {}, `${fieldValue(name, backfill[name])} — ${t('diag.ingest.backfillStale')}`)
              : fieldValue(name, backfill[name]),
        }),
      )
    : null;

  return section(
    'ingest-title',
    t('diag.ingest.title'),
    headline,
    banner,
    notes ? h('div', {}, h('h3', {}, t('diag.ingest.notes')), notes) : null,
    backfills,
    // The raw record, for copy-paste: below what it means, closed until asked for.
    h('details', { 'data-testid': 'ingest-raw' }, h('summary', {}, t('ingest.field.raw')), fieldGroups, rejects),
  );
}

/** Events the database refused (reason apply_failed): the pending count and the newest records. */
function deadLetterBlock(block: DiagnosticsSummary['deadLetters'], pages: ClubPages): HTMLElement {
  if (block.recent.length === 0)
    return section('dead-letters-title', t('diag.deadLetters.title'), h('p', { class: 'muted' }, t('diag.deadLetters.none')));
  const summary =
    block.pending > 0
      ? h('p', { role: 'status' }, t('diag.deadLetters.pending', { pending: block.pending }))
      : h('p', { class: 'muted' }, t('diag.deadLetters.replayed'));
  return section(
    'dead-letters-title',
    t('diag.deadLetters.title'),
    summary,
    h(
      'details',
      { 'data-testid': 'dead-letters' },
      h('summary', {}, `${t('diag.deadLetters.recent')} (${block.recent.length})`),
      recordsTable(DEAD_LETTER_COLUMNS, block.recent, t('diag.deadLetters.recent'), {
        cell: (name, row) => withClubLink(name, row[name], pages),
      }),
    ),
  );
}

/** The notification delivery queue: depth, the oldest due row, every attempt of 24 h by channel, outcome and reason. */
function deliveryBlock(block: DiagnosticsSummary['delivery']): HTMLElement {
  const title = t('diag.delivery.title');
  // A due row older than an hour means the delivery timer (every minute) is not draining the queue.
  const stuck = block.oldestDueAt !== null && Date.now() - new Date(block.oldestDueAt).getTime() > 3_600_000;
  return section(
    'delivery-title',
    title,
    stuck
      ? h(
          'div',
          { class: 'alert alert-warning', role: 'status' },
          h('p', {}, t('diag.delivery.stuck', { time: dateTime(block.oldestDueAt) })),
        )
      : null,
    // The queue in one line; the oldest due row marked when the timer seems stopped.
    h(
      'p',
      { 'data-testid': 'delivery-queue' },
      `${t('diag.delivery.pending')}: ${block.pending} · ${t('diag.delivery.due')}: ${block.due} · ${t('diag.delivery.oldest')}: `,
      h('span', { class: stuck ? 'highlight' : '', 'data-field': 'oldestDueAt' }, fieldValue('oldestDueAt', block.oldestDueAt)),
    ),
    block.byChannel.length
      ? h(
          'details',
          { 'data-testid': 'delivery-queue-channels' },
          h('summary', {}, t('diag.delivery.byChannel')),
          channelTable(block.byChannel),
        )
      : null,
    h('h3', {}, t('delivery.outcomes')),
    outcomeTable(block),
  );
}

/** The queue per outbox channel: a channel the page has no label for shows its name. */
function channelTable(channels: DiagnosticsSummary['delivery']['byChannel']): HTMLElement {
  const caption = t('diag.delivery.byChannel');
  return tableWrap(
    dataTable(
      { 'data-testid': 'delivery-channels' },
      [t('diag.delivery.channel'), t('diag.delivery.channelPending'), t('diag.delivery.channelDue'), t('diag.delivery.oldest')],
      channels.map((row) =>
        h(
          'tr',
          { 'data-channel': row.channel },
          h('th', { scope: 'row' }, channelName(row.channel)),
          h('td', { class: 'num' }, String(row.pending)),
          h('td', { class: 'num' }, String(row.due)),
          h('td', {}, dateTime(row.oldestDueAt)),
        ),
      ),
    ),
    caption,
  );
}

/** Clubs whose box pushes no longer arrive (or are refused), longest failing first, each linking to its page. */
function boxPushBlock(block: DiagnosticsSummary['boxPushes']): HTMLElement {
  const title = t('diag.boxPushes.title');
  const push = (state: string, at: string | null) => [
    h('span', { class: `badge badge-push-${state}`, 'data-push': state }, t(`push.${state}` as Key)),
    h('br'),
    h('span', { class: 'muted small' }, dateTime(at)),
  ];
  return section(
    'box-pushes-title',
    title,
    // The problem list names them with their cause; the channels of each are here when asked for.
    h(
      'details',
      { 'data-testid': 'box-pushes-all' },
      h('summary', {}, t('diag.boxPushes.shown', { shown: block.clubs.length, failing: block.failing })),
      tableWrap(
        dataTable(
          { 'data-testid': 'box-pushes' },
          [t('diag.freshness.club'), t('diag.boxPushes.clubMaster'), t('diag.boxPushes.starterlists'), t('diag.boxPushes.lastUse')],
          block.clubs.map((club) =>
            h(
              'tr',
              { 'data-club': club.clubId },
              h(
                'th',
                { scope: 'row' },
                clubLink(club.clubId, club.name),
                h('br'),
                h('span', { class: 'muted small' }, club.vereinsId ?? '–'),
              ),
              h('td', {}, push(club.clubMaster, club.clubMasterReportedAt)),
              h('td', {}, push(club.starterlists, club.starterlistPushAt)),
              h('td', {}, dateTime(club.tokenLastUsedAt)),
            ),
          ),
        ),
        title,
      ),
      h('p', { class: 'muted small' }, t('club.box.stateNote', { hours: block.staleAfterHours })),
    ),
  );
}

const DEAD_LETTER_COLUMNS = [
  'id',
  'deadAt',
  'topic',
  'clubId',
  'entity',
  'sqlState',
  'detail',
  'partitionId',
  'sequenceNumber',
  'replayAttempts',
  'lastReplayError',
  'replayedAt',
];
const REJECT_COLUMNS = ['rejectedAt', 'topic', 'clubId', 'entity', 'reason', 'detail', 'partitionId', 'sequenceNumber'];
const BACKFILL_COLUMNS = [
  'consumerGroup',
  'kind',
  'clubIds',
  'state',
  'lagLeft',
  'eventsRead',
  'eventsApplied',
  'eventsSkipped',
  'startedAt',
  'updatedAt',
  'finishedAt',
  'errorMessage',
];

/** The story of each club the summary names, by club id. */
type Stories = ReadonlyMap<string, ClubStoryView>;
function storiesOf(list: DiagnosticsSummary['clubStories']): Stories {
  return new Map(list.map(({ clubId, story }) => [clubId, story]));
}

/** The club's most likely cause from its story (so the table and the club page agree), else the check's own reading. */
function interpretation(club: ClubFreshness, story: ClubStoryView | undefined): string {
  if (story?.cause) return t(`cause.${story.cause}`);
  if (club.status === 'error') return club.statusReason === 'arrival_in_future' ? t('diag.freshness.arrivalInFuture') : '–';
  if (club.hint) {
    const key = `diag.hint.${club.hint.code}` as Key;
    return t(key) === key ? club.hint.message : t(key);
  }
  return club.status === 'ok' ? t('diag.freshness.okText') : '–';
}

function statusBadge(status: string): HTMLElement {
  return h('span', { class: `badge badge-${status}` }, t(`diag.status.${status}` as Key));
}

function freshnessBlock(
  block: DiagnosticsSummary['dataFreshness'],
  stories: Stories,
  pushes: DiagnosticsSummary['boxPushes'],
): HTMLElement {
  const summary = h(
    'p',
    {},
    t('diag.freshness.summary', {
      status: t(`diag.status.${block.status}` as Key),
      checked: block.checked,
      fresh: block.fresh,
      stale: block.stale,
      unknown: block.unknown,
      time: dateTime(block.checkedAt),
    }),
  );
  if (block.clubs.length === 0)
    return section('freshness-title', t('diag.freshness.title'), summary, h('p', { class: 'muted' }, t('diag.freshness.none')));
  const tbody = h('tbody');
  const table = h(
    'table',
    { 'data-testid': 'freshness' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        (
          [
            'club',
            'status',
            'interpretation',
            'lastArrival',
            'lastStarterlist',
            'edgeToken',
            'evening',
            'plan',
            'since',
            'consent',
          ] as const
        ).map((column) => h('th', { scope: 'col' }, t(`diag.freshness.${column}`))),
      ),
    ),
    tbody,
  );
  const shown = h('span', {});
  const more = h('button', { type: 'button', class: 'button button-secondary button-small' }, t('common.more'));
  let nextOffset = block.nextOffset;
  let count = 0;
  const add = (clubs: ClubFreshness[], told: Stories) => {
    tbody.append(...clubs.map((club) => freshnessRow(club, told.get(club.clubId))));
    count += clubs.length;
    shown.textContent = t('diag.freshness.shown', { shown: count, total: block.total });
    more.hidden = nextOffset === null;
  };
  // Further pages of clubs, worst first.
  more.addEventListener('click', () => {
    if (nextOffset === null) return;
    more.disabled = true;
    getJson<DiagnosticsSummary>(`/api/admin/diagnostics/summary?limit=${FRESHNESS_PAGE}&offset=${nextOffset}`)
      .then((page) => {
        nextOffset = page.dataFreshness.nextOffset;
        add(page.dataFreshness.clubs, storiesOf(page.clubStories));
      })
      .catch((error: unknown) => more.after(problemBox(t('diag.freshness.title'), error)))
      .finally(() => {
        more.disabled = false;
      });
  });
  add(block.clubs, stories);
  // The troubled clubs lead the problem list above; every club's row is here when asked for.
  return section(
    'freshness-title',
    t('diag.freshness.title'),
    summary,
    // Failing pushes have their own section; when none fail, one line here says so.
    pushes.failing === 0
      ? h('p', { class: 'muted', 'data-testid': 'box-pushes-none' }, t('diag.boxPushes.none', { hours: pushes.staleAfterHours }))
      : null,
    h(
      'details',
      { 'data-testid': 'freshness-all' },
      h('summary', {}, shown),
      tableWrap(table, t('diag.freshness.title')),
      h('p', { class: 'muted small pager' }, more),
    ),
  );
}

function freshnessRow(club: ClubFreshness, story: ClubStoryView | undefined): HTMLElement {
  return h(
    'tr',
    { class: club.status === 'stale' || club.status === 'error' ? 'highlight' : '', 'data-club': club.vereinsId },
    h('th', { scope: 'row' }, clubLink(club.clubId, club.name), h('br'), h('span', { class: 'muted small' }, club.vereinsId)),
    h('td', {}, statusBadge(club.status)),
    h('td', { 'data-cause': story?.cause ?? '' }, interpretation(club, story)),
    h('td', {}, dateTime(club.lastArrivalAt)),
    h('td', {}, dateTime(club.lastStarterlistSeenAt)),
    h('td', {}, dateTime(club.edgeTokenLastUsedAt)),
    h('td', {}, `${dateTime(club.evening.start)} – ${dateTime(club.evening.end)}`),
    h('td', {}, club.planSource === 'assumed' ? t('diag.freshness.planAssumed') : t('diag.freshness.planStored')),
    h('td', {}, dateTime(club.since)),
    h('td', { 'data-consent': club.consent.state }, consentCell(club.consent)),
  );
}

/** The consent the club's box reported: only GRANTED lets its score rows in; unknown (never reported) is not refused. */
function consentCell(consent: ClubFreshness['consent']): (string | HTMLElement)[] {
  const state = t(`diag.consent.${consent.state}` as Key);
  if (consent.state === 'unknown') return [state];
  return [
    consent.state === 'GRANTED' ? state : h('strong', {}, state),
    h('br'),
    h(
      'span',
      { class: 'muted small' },
      t('diag.consent.detail', { since: dateTime(consent.since), reportedAt: dateTime(consent.reportedAt) }),
    ),
  ];
}

function catalogBlock(host: HTMLElement): void {
  const status = h(
    'select',
    { id: 'catalog-status', name: 'status' },
    h('option', { value: '' }, t('diag.catalog.all')),
    h('option', { value: 'active' }, catalogStatus('active')),
    h('option', { value: 'inactive' }, catalogStatus('inactive')),
    h('option', { value: 'imported_only' }, catalogStatus('imported_only')),
  );
  const query = h('input', { id: 'catalog-q', name: 'q', type: 'search', maxlength: 100, autocomplete: 'off' });
  const message = h('div', { 'aria-live': 'polite' });
  const results = h('div', {}, loading());
  let offset = 0;
  const LIMIT = 50;

  const load = async () => {
    replace(results, loading());
    const params = new URLSearchParams({ limit: String(LIMIT), offset: String(offset) });
    if (status.value) params.set('status', status.value);
    if (query.value.trim()) params.set('q', query.value.trim());
    try {
      const page = await getJson<CatalogPage>(`/api/admin/clubs?${params.toString()}`);
      replace(results, catalogTable(page, adopt), pager(page));
    } catch (error) {
      replace(results, problemBox(t('diag.catalog.title'), error));
    }
  };
  const pager = (page: CatalogPage) => {
    const previous = h('button', { type: 'button', class: 'button button-secondary' }, t('common.previous'));
    const next = h('button', { type: 'button', class: 'button button-secondary' }, t('common.next'));
    previous.disabled = page.offset === 0;
    next.disabled = page.nextOffset === null;
    previous.addEventListener('click', () => {
      offset = Math.max(0, offset - LIMIT);
      void load();
    });
    next.addEventListener('click', () => {
      offset = page.nextOffset ?? offset;
      void load();
    });
    return h(
      'div',
      { class: 'pager' },
      h('span', { class: 'muted small' }, t('diag.catalog.total', { total: page.total })),
      previous,
      next,
    );
  };
  const adopt = async (entry: CatalogEntry) => {
    const number = entry.vereinsId ?? '';
    try {
      const result = (await send('POST', '/api/admin/clubs/adopt', { vereinsId: number })) as AdoptResult;
      replace(
        message,
        h(
          'div',
          { class: 'alert alert-ok', role: 'status' },
          h('p', {}, t(result.created ? 'diag.catalog.adopted' : 'diag.catalog.activated', { name: entry.name, number })),
        ),
      );
      await load();
    } catch (error) {
      replace(message, problemBox(t('diag.catalog.adoptFailed', { number }), error));
    }
  };

  const form = h(
    'form',
    { class: 'filters', role: 'search' },
    h('div', { class: 'field' }, h('label', { for: 'catalog-status' }, t('diag.catalog.filter')), status),
    h('div', { class: 'field' }, h('label', { for: 'catalog-q' }, t('diag.catalog.search')), query),
    h('button', { type: 'submit', class: 'button button-secondary' }, t('diag.catalog.apply')),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    offset = 0;
    void load();
  });
  // A work tool, not part of the incident: closed, and read only when opened.
  const details = h(
    'details',
    { 'data-testid': 'catalog-section' },
    h('summary', {}, h('h2', { id: 'catalog-title', class: 'summary-heading' }, t('diag.catalog.title'))),
    form,
    message,
    results,
  );
  let loaded = false;
  details.addEventListener('toggle', () => {
    if (!details.open || loaded) return;
    loaded = true;
    void load();
  });
  replace(host, h('section', { class: 'card', 'aria-labelledby': 'catalog-title' }, details));
}

function catalogTable(page: CatalogPage, adopt: (entry: CatalogEntry) => Promise<void>): HTMLElement {
  if (page.items.length === 0) return h('p', { class: 'muted' }, t('diag.catalog.empty'));
  const table = dataTable(
    { 'data-testid': 'catalog' },
    (['name', 'number', 'status', 'boxes', 'lastSeen', 'action'] as const).map((column) => t(`diag.catalog.${column}`)),
    page.items.map((entry) => {
      let action: HTMLElement | string = '–';
      if (entry.status === 'imported_only' && entry.vereinsId) {
        const button = h(
          'button',
          {
            type: 'button',
            class: 'button button-small',
            'aria-label': t('diag.catalog.adoptLabel', { number: entry.vereinsId, name: entry.name }),
          },
          t('diag.catalog.adopt'),
        );
        button.addEventListener('click', () => {
          button.disabled = true;
          void adopt(entry).finally(() => {
            button.disabled = false;
          });
        });
        action = button;
      }
      return h(
        'tr',
        { 'data-club': entry.vereinsId ?? '' },
        h('th', { scope: 'row' }, entry.clubId ? clubLink(entry.clubId, entry.name) : entry.name),
        h('td', {}, entry.vereinsId ?? '–'),
        h('td', {}, h('span', { class: `badge badge-${entry.status}` }, catalogStatus(entry.status))),
        h('td', { class: 'num' }, String(entry.reportingBoxes)),
        h('td', {}, dateTime(entry.lastSeenAt)),
        h('td', {}, action),
      );
    }),
  );
  return tableWrap(table, t('diag.catalog.title'));
}
