import { h } from './dom';
import { t } from './i18n';
import type { DeliveryQueueBlock } from './types';
import { dataTable, tableWrap } from './ui';
import { channelName, deliveryReason } from './words';

type Outcome = DeliveryQueueBlock['outcomes'][number]['outcome'];
const OUTCOMES: readonly Outcome[] = ['sent', 'failed', 'retrying', 'skipped'];

/** Attempts of 24 hours per channel and outcome, every channel the log or the queue names. */
export function outcomeTotals(block: DeliveryQueueBlock): { channel: string; counts: Record<Outcome, number> }[] {
  const channels = [...new Set([...block.outcomes.map((row) => row.channel), ...block.byChannel.map((row) => row.channel)])].sort();
  return channels.map((channel) => {
    const counts = { sent: 0, failed: 0, retrying: 0, skipped: 0 };
    for (const row of block.outcomes) if (row.channel === channel) counts[row.outcome] += row.count;
    return { channel, counts };
  });
}

/** One line per channel: "Email: 0 sent, 0 failed, 0 retrying, 6 skipped" (the overview). */
export function deliveryTotals(block: DeliveryQueueBlock): HTMLElement {
  const totals = outcomeTotals(block);
  if (totals.length === 0) return h('p', { 'data-testid': 'overview-delivery' }, t('delivery.outcomes.none'));
  return h(
    'ul',
    { class: 'plain', 'data-testid': 'overview-delivery' },
    totals.map(({ channel, counts }) =>
      h(
        'li',
        { 'data-channel': channel, class: counts.failed + counts.skipped > 0 ? 'delivery-short' : '' },
        h('a', { href: '#/diagnostics' }, t('delivery.totals', { channel: channelName(channel), ...counts })),
      ),
    ),
  );
}

/** Every attempt of 24 hours by channel, outcome and reason (the diagnostics page). */
export function outcomeTable(block: DeliveryQueueBlock): HTMLElement {
  const caption = t('delivery.outcomes');
  if (block.outcomes.length === 0) return h('p', { class: 'muted', 'data-testid': 'delivery-outcomes' }, t('delivery.outcomes.none'));
  const rows = [...block.outcomes].sort(
    (a, b) => a.channel.localeCompare(b.channel) || OUTCOMES.indexOf(a.outcome) - OUTCOMES.indexOf(b.outcome) || b.count - a.count,
  );
  return tableWrap(
    dataTable(
      { 'data-testid': 'delivery-outcomes' },
      [t('delivery.channel'), t('delivery.outcome'), t('delivery.reason'), { label: t('delivery.count'), numeric: true }],
      rows.map((row) =>
        h(
          'tr',
          { 'data-channel': row.channel, 'data-outcome': row.outcome, class: row.outcome === 'sent' ? '' : 'highlight' },
          h('th', { scope: 'row' }, channelName(row.channel)),
          h('td', {}, t(`delivery.outcome.${row.outcome}`)),
          h('td', {}, deliveryReason(row.reason)),
          h('td', { class: 'num' }, String(row.count)),
        ),
      ),
    ),
    caption,
  );
}
