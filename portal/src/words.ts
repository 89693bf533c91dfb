import { money } from './format';
import { t, type Key } from './i18n';
import { en } from './labels';
import type { Capability, ClubStoryView, ProblemView, Session } from './types';

/**
 * Every enum the API answers with, in the reader's words (German or English): nothing raw like
 * `active`, `imported_only` or `stale` reaches the screen.
 */
export function deliveryReason(reason: string | null): string {
  if (reason === null) return t('delivery.reason.none');
  const key = `delivery.reason.${reason}`;
  // Failure reasons are the provider's own answer (free text), shown as such.
  return isKey(key) ? t(key) : t('delivery.reason.other', { reason });
}

export function channelName(channel: string): string {
  const key = `diag.delivery.channel.${channel}`;
  return isKey(key) ? t(key) : channel;
}

export function freshnessWord(status: ClubStoryView['freshness']): string {
  return status === 'not_checked' ? t('freshness.not_checked') : t(`diag.status.${status}`);
}

export function catalogStatus(status: string): string {
  const key = `catalog.status.${status}`;
  return isKey(key) ? t(key) : status;
}

export function clubStatus(status: 'active' | 'inactive'): string {
  return t(`club.status.${status}`);
}

/** A platform role (`ops_admin`) as the reader calls it. */
export function platformRoleName(role: Session['roles'][number]): string {
  return t(`platformRole.${role}`);
}

/** A capability (`costs.read`) as what it lets the reader do. */
export function capabilityName(capability: Capability): string {
  return t(`capability.${capability}`);
}

/** The club problem's cause, or the problem's own one-line cause from its facts. */
export function problemCause(problem: ProblemView): string {
  if (problem.cause) return t(`cause.${problem.cause}`);
  const late = typeof problem.facts.hoursLate === 'number' ? ` ${t('problem.alsoLate', { hours: problem.facts.hoursLate })}` : '';
  const facts = problem.facts;
  const text = (name: string) => (facts[name] === null || facts[name] === undefined ? '–' : String(facts[name]));
  const values: Record<string, string | number> = Object.fromEntries(Object.keys(facts).map((name) => [name, text(name)]));
  if (problem.kind === 'delivery_failed' || problem.kind === 'delivery_skipped') {
    values.reason = deliveryReason(typeof facts.reason === 'string' ? facts.reason : null);
  }
  if (problem.kind === 'costs_over_budget' && typeof facts.currency === 'string') {
    for (const name of ['forecast', 'budget']) {
      const amount = facts[name];
      if (typeof amount === 'number') values[name] = money(amount, facts.currency);
    }
  }
  return t(`problem.cause.${problem.kind}` as Key, { ...values, part: problem.part ?? t('problem.unknownPart') }) + late;
}

export function problemTitle(problem: ProblemView): string {
  const channel = typeof problem.facts.channel === 'string' ? channelName(problem.facts.channel) : '';
  return t(`problem.${problem.kind}`, { hours: problem.facts.hoursLate ?? '–', count: problem.facts.count ?? '–', channel });
}

/** The step to take: a club problem's from its cause, the others' by kind. */
export function problemStep(problem: ProblemView): string {
  return problem.cause ? t(`cause.step.${problem.cause}`) : t(`problem.step.${problem.kind}` as Key);
}

function isKey(key: string): key is Key {
  return Object.hasOwn(en, key);
}
