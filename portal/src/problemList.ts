import { h } from './dom';
import { dateTime } from './format';
import { t } from './i18n';
import { clubLink } from './links';
import type { ProblemView } from './types';
import { runbookRef } from './ui';
import { problemCause, problemStep, problemTitle } from './words';

/**
 * The open problems, worst first, as the overview and the diagnostics page lead with them: each
 * with its severity (colour and word), the club or part affected, the cause in one line, the
 * step with its runbook section, and a link to the page that shows it.
 */
export function problemList(problems: readonly ProblemView[], options: { shown?: number } = {}): HTMLElement {
  if (problems.length === 0) {
    return h('p', { class: 'alert alert-ok', role: 'status', 'data-testid': 'problems-none' }, t('board.none'));
  }
  const shown = options.shown ?? problems.length;
  const rest = problems.slice(shown);
  return h(
    'div',
    {},
    h('ol', { class: 'problems', 'data-testid': 'problems' }, problems.slice(0, shown).map(problemItem)),
    // An incident view keeps the worst in sight: the less urgent rest one click away, counted.
    rest.length > 0
      ? h(
          'details',
          { 'data-testid': 'problems-more' },
          h('summary', {}, t('board.more', { count: rest.length })),
          h('ol', { class: 'problems', start: shown + 1 }, rest.map(problemItem)),
        )
      : null,
  );
}

function problemItem(problem: ProblemView): HTMLElement {
  const target = problem.link === '#/costs' ? t('board.open.costs') : problem.club ? t('board.open.club') : t('board.open.diagnostics');
  return h(
    'li',
    { class: `problem problem-${problem.severity}`, 'data-kind': problem.kind, 'data-severity': problem.severity },
    h(
      'p',
      { class: 'problem-head' },
      h('span', { class: `severity severity-${problem.severity}` }, t(`severity.${problem.severity}`)),
      ' ',
      h('strong', {}, problemTitle(problem)),
      problem.club ? [': ', clubLink(problem.club.clubId, problem.club.name)] : null,
      problem.since ? h('span', { class: 'muted small' }, ` · ${dateTime(problem.since)}`) : null,
    ),
    h(
      'p',
      { class: 'problem-cause' },
      `${problemCause(problem).replace(/\.$/, '')}. `,
      h('strong', {}, t('board.step')),
      ' ',
      problemStep(problem),
      problem.runbook ? [' ', runbookRef(problem.runbook)] : null,
      ' ',
      h('a', { href: problem.link }, target),
    ),
  );
}
