import { h } from '../dom';
import { t } from '../i18n';
import type { Session } from '../types';
import { section } from '../ui';

export function overviewPage(main: HTMLElement, session: Session): void {
  const pages = [
    session.capabilities.includes('costs.read')
      ? h('li', {}, h('a', { href: '#/costs' }, t('nav.costs')), ` — ${t('overview.costsHint')}`)
      : null,
    session.capabilities.includes('diagnostics.read')
      ? h('li', {}, h('a', { href: '#/diagnostics' }, t('nav.diagnostics')), ` — ${t('overview.diagnosticsHint')}`)
      : null,
  ].filter((item) => item !== null);
  main.append(
    h('h1', { tabindex: -1 }, t('overview.title')),
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
}
