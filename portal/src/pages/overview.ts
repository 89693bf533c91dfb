import { getJson } from '../api';
import { h, replace } from '../dom';
import { dateTime, money } from '../format';
import { t, type Key } from '../i18n';
import { clubLink } from '../links';
import { ingestState } from '../runbook';
import type { Capability, CostStatus, CostSummary, DiagnosticsSummary, Session } from '../types';
import { loading, problemBox, section } from '../ui';

/** Stale clubs named on the overview; the rest are on the diagnostics page, worst first. */
const STALE_LISTED = 10;

/**
 * "Is everything all right?": the ingest state, clubs by freshness (stale first) and the month's
 * costs against the forecast and the same days of last month, each linking to its page; then
 * the session and the pages it may open.
 */
export async function overviewPage(main: HTMLElement, session: Session): Promise<void> {
  const can = (capability: Capability) => session.capabilities.includes(capability);
  const pages = [
    can('costs.read') ? h('li', {}, h('a', { href: '#/costs' }, t('nav.costs')), ` — ${t('overview.costsHint')}`) : null,
    can('diagnostics.read')
      ? h('li', {}, h('a', { href: '#/diagnostics' }, t('nav.diagnostics')), ` — ${t('overview.diagnosticsHint')}`)
      : null,
  ].filter((item) => item !== null);
  const health = can('diagnostics.read') ? h('div', { class: 'stack' }, loading()) : null;
  const costs = can('costs.read') ? h('div', { class: 'stack' }, loading()) : null;
  main.append(
    h('h1', { tabindex: -1 }, t('overview.title')),
    ...[health, costs].filter((block) => block !== null),
    section(
      'session-title',
      t('overview.signedInAs'),
      h(
        'dl',
        { class: 'session' },
        h('dt', {}, 'sub'),
        h('dd', { 'data-testid': 'session-sub' }, session.sub),
        h('dt', {}, t('overview.roles')),
        h('dd', {}, session.roles.join(', ') || t('common.none')),
        h('dt', {}, t('overview.capabilities')),
        h('dd', {}, session.capabilities.join(', ') || t('common.none')),
      ),
    ),
    section('pages-title', t('overview.pages'), pages.length ? h('ul', {}, pages) : h('p', {}, t('overview.noPages'))),
  );
  await Promise.all([health ? healthBlock(health) : null, costs ? costBlock(costs) : null]);
}

async function healthBlock(host: HTMLElement): Promise<void> {
  try {
    const summary = await getJson<DiagnosticsSummary>(`/api/admin/diagnostics/summary?limit=${STALE_LISTED}`);
    const state = ingestState(summary.ingest);
    const freshness = summary.dataFreshness;
    const stale = freshness.clubs.filter((club) => club.status === 'stale' || club.status === 'error');
    replace(
      host,
      section(
        'overview-health-title',
        t('overview.health'),
        h(
          'p',
          { class: `ingest-state state-${state}`, 'data-testid': 'overview-ingest', 'data-state': state },
          t('diag.ingest.state'),
          ' ',
          h('strong', {}, t(`diag.headline.${state}` as Key)),
          ' — ',
          h('a', { href: '#/diagnostics' }, t('overview.toDiagnostics')),
        ),
        h(
          'p',
          { 'data-testid': 'overview-freshness' },
          t('overview.freshness', {
            stale: freshness.stale,
            unknown: freshness.unknown,
            fresh: freshness.fresh,
            checked: freshness.checked,
          }),
        ),
        stale.length
          ? h(
              'ul',
              { 'data-testid': 'overview-stale' },
              stale.map((club) => h('li', {}, clubLink(club.clubId, club.name), ` (${club.vereinsId}) — `, club.status)),
            )
          : null,
        summary.deadLetters.pending > 0
          ? h('p', { class: 'alert alert-warning' }, t('diag.deadLetters.pending', { pending: summary.deadLetters.pending }))
          : null,
        boxPushLine(summary.boxPushes),
        deliveryLine(summary.delivery),
      ),
    );
  } catch (error) {
    replace(host, problemBox(t('overview.health'), error));
  }
}

/** Box pushes failing, each club linking to its page (the diagnostics page lists them all). */
function boxPushLine(block: DiagnosticsSummary['boxPushes']): HTMLElement {
  if (block.failing === 0) return h('p', { 'data-testid': 'overview-box-pushes' }, t('overview.boxPushesOk'));
  return h(
    'div',
    { class: 'alert alert-warning', 'data-testid': 'overview-box-pushes' },
    h(
      'p',
      {},
      t('overview.boxPushes', { failing: block.failing, hours: block.staleAfterHours }),
      ' — ',
      h('a', { href: '#/diagnostics' }, t('overview.toDiagnostics')),
    ),
    h(
      'ul',
      {},
      block.clubs
        .slice(0, STALE_LISTED)
        .map((club) =>
          h(
            'li',
            {},
            clubLink(club.clubId, club.name),
            ` — ${t('diag.boxPushes.clubMaster')}: ${t(`push.${club.clubMaster}` as Key)}; ${t('diag.boxPushes.starterlists')}: ${t(`push.${club.starterlists}` as Key)}`,
          ),
        ),
    ),
  );
}

/** Notification delivery from the delivery queue: failures of the last 24 hours lead, linking to diagnostics. */
function deliveryLine(block: DiagnosticsSummary['delivery']): HTMLElement {
  const failed = block.failuresByReason.reduce((sum, failure) => sum + failure.count, 0);
  const queue = t('overview.delivery', { pending: block.pending, due: block.due, oldest: dateTime(block.oldestDueAt) });
  const link = h('a', { href: '#/diagnostics' }, t('overview.toDiagnostics'));
  if (failed === 0) return h('p', { 'data-testid': 'overview-delivery' }, queue, ' ', t('overview.deliveryOk'), ' — ', link);
  return h(
    'div',
    { class: 'alert alert-warning', 'data-testid': 'overview-delivery' },
    h('p', {}, t('overview.deliveryFailing', { failed, reason: block.failuresByReason[0]?.reason ?? '' }), ' — ', link),
    h('p', { class: 'small' }, queue),
  );
}

async function costBlock(host: HTMLElement): Promise<void> {
  try {
    const status = await getJson<CostStatus>('/api/admin/v1/costs/status');
    if (!status.configured) {
      replace(host, section('overview-costs-title', t('costs.title'), h('p', { class: 'muted' }, t('costs.unconfigured.title'))));
      return;
    }
    const summary = await getJson<CostSummary>('/api/admin/v1/costs/summary');
    const { currency } = summary;
    replace(
      host,
      section(
        'overview-costs-title',
        t('costs.title'),
        h(
          'p',
          { 'data-testid': 'overview-costs' },
          t('overview.costs', {
            mtd: money(summary.monthToDate, currency),
            forecast: money(summary.forecast.endOfMonth, currency),
            lastMonth: money(summary.lastMonth, currency),
            samePeriod: money(summary.lastMonthToDate, currency),
          }),
          ' — ',
          h('a', { href: '#/costs' }, t('overview.toCosts')),
        ),
      ),
    );
  } catch (error) {
    replace(host, problemBox(t('costs.title'), error));
  }
}
