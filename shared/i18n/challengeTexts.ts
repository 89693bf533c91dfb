import { defineCatalogue, textOf, type TextParameters } from './catalogue';
import { dateTimeFormat } from './dateTimeFormat';
import type { Language } from './language';
import type { BilingualText } from './localizedText';
import type { MessageRenderers, RenderedMessage } from './message';

/**
 * What the challenges area writes for members, German first: the adaptive goal's title and
 * description and the inbox messages of results and reminders. The presets' own titles, descriptions
 * and badge names live with each preset (shared/challenges/presets.ts). Add a key to both languages; the catalogue
 * test fails when one is missing or an English text was copied into the German side.
 */
export const CHALLENGE_TEXTS = defineCatalogue({
  de: {
    'personal.shots.title': 'Persönliches Ziel: Schüsse',
    'personal.sessions.title': 'Persönliches Ziel: Trainingstage',
    'personal.averageRing.title': 'Persönliches Ziel: Ringdurchschnitt',
    'personal.bestSeries.title': 'Persönliches Ziel: beste Serie',
    'personal.description': '{percent} % über deinem Durchschnitt der letzten {days} Tage.',
    'result.completed.title': 'Challenge geschafft: {challenge}',
    'result.winner.title': 'Gewonnen: {challenge}',
    'result.finalist.title': 'Im Finale: {challenge}',
    'result.xp.body': 'Du hast +{xp} XP verdient.',
    'result.xpAndBadge.body': 'Du hast +{xp} XP und das Abzeichen „{badge}“ verdient.',
    'failed.title': 'Challenge beendet: {challenge}',
    'failed.body': 'Die Zeit ist abgelaufen, bevor das Ziel erreicht war. Mach bei einer anderen Challenge mit, um dranzubleiben.',
    'endsSoon.title': 'Noch 24 Stunden: {challenge}',
    'endsSoon.body': 'Deine Challenge endet am {endsAt}. Ein Training jetzt zählt noch.',
    'streakAtRisk.title': 'Serie von {weeks} Wochen: noch kein Training diese Woche',
    'streakAtRisk.body': 'Du hast diese Woche noch nicht trainiert. Ohne Training bis Sonntag, 24 Uhr, endet deine Serie.',
    'streakAtRisk.bodyWithFreeze':
      'Du hast diese Woche noch nicht trainiert. Ohne Training bis Sonntag, 24 Uhr, verbraucht die Woche den Joker dieses Monats.',
  },
  en: {
    'personal.shots.title': 'Personal goal: shots',
    'personal.sessions.title': 'Personal goal: training sessions',
    'personal.averageRing.title': 'Personal goal: average ring value',
    'personal.bestSeries.title': 'Personal goal: best series',
    'personal.description': '{percent} % above your average of the last {days} days.',
    'result.completed.title': 'Challenge completed: {challenge}',
    'result.winner.title': 'Winner: {challenge}',
    'result.finalist.title': 'Finalist: {challenge}',
    'result.xp.body': 'You earned +{xp} XP.',
    'result.xpAndBadge.body': 'You earned +{xp} XP and badge "{badge}".',
    'failed.title': 'Challenge ended: {challenge}',
    'failed.body': 'The time ran out before the goal was reached. Join another challenge to keep going.',
    'endsSoon.title': '24 hours left: {challenge}',
    'endsSoon.body': 'Your challenge ends on {endsAt}. A training session now still counts.',
    'streakAtRisk.title': '{weeks}-week streak: no training this week yet',
    'streakAtRisk.body': 'You have not trained this week yet. Without a session before Sunday midnight, your streak ends.',
    'streakAtRisk.bodyWithFreeze':
      'You have not trained this week yet. Without a session before Sunday midnight, this week uses up this month’s freeze.',
  },
});

export type ChallengeTextKey = keyof typeof CHALLENGE_TEXTS.de;

/** A challenge text in both languages (for a stored template's titles, descriptions). */
export function challengeTextInBoth(key: ChallengeTextKey, parameters: TextParameters = {}): BilingualText {
  return { de: textOf(CHALLENGE_TEXTS, key, 'de', parameters), en: textOf(CHALLENGE_TEXTS, key, 'en', parameters) };
}

const PLACEMENTS = ['completed', 'winner', 'finalist'] as const;
type Placement = (typeof PLACEMENTS)[number];

const isBilingual = (value: unknown): value is BilingualText =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as BilingualText).de === 'string' &&
  typeof (value as BilingualText).en === 'string';

/** The end of a challenge as a reader of `language` writes a date and time in Germany. */
function endsAtText(iso: string, language: Language): string {
  return dateTimeFormat(language, 'Europe/Berlin', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}

/**
 * The inbox messages of this area, rendered from their stored parameters in the reader's language;
 * undefined for parameters this code cannot read (the entry's stored text is shown instead).
 */
export const CHALLENGE_MESSAGES: MessageRenderers = {
  'challenges.result': (language, params): RenderedMessage | undefined => {
    const { placement, challenge, xp, badge } = params;
    if (!PLACEMENTS.includes(placement as Placement) || !isBilingual(challenge) || typeof xp !== 'number') return undefined;
    if (badge !== undefined && !isBilingual(badge)) return undefined;
    return {
      title: textOf(CHALLENGE_TEXTS, `result.${placement as Placement}.title`, language, { challenge }),
      body: textOf(CHALLENGE_TEXTS, badge ? 'result.xpAndBadge.body' : 'result.xp.body', language, badge ? { xp, badge } : { xp }),
    };
  },
  'challenges.failed': (language, params) => {
    if (!isBilingual(params.challenge)) return undefined;
    return {
      title: textOf(CHALLENGE_TEXTS, 'failed.title', language, { challenge: params.challenge }),
      body: textOf(CHALLENGE_TEXTS, 'failed.body', language),
    };
  },
  'challenges.endsSoon': (language, params) => {
    const { challenge, endsAt } = params;
    if (!isBilingual(challenge) || typeof endsAt !== 'string' || Number.isNaN(Date.parse(endsAt))) return undefined;
    return {
      title: textOf(CHALLENGE_TEXTS, 'endsSoon.title', language, { challenge }),
      body: textOf(CHALLENGE_TEXTS, 'endsSoon.body', language, { endsAt: endsAtText(endsAt, language) }),
    };
  },
  /** The Sunday warning of a streak about to break; `freeze` says whether this week would use the month's freeze instead (`available`) or end the streak (`spent`). */
  'challenges.streakAtRisk': (language, params) => {
    const { weeks, freeze } = params;
    if (typeof weeks !== 'number' || !Number.isInteger(weeks) || weeks < 1) return undefined;
    if (freeze !== 'available' && freeze !== 'spent') return undefined;
    return {
      title: textOf(CHALLENGE_TEXTS, 'streakAtRisk.title', language, { weeks }),
      body: textOf(CHALLENGE_TEXTS, freeze === 'available' ? 'streakAtRisk.bodyWithFreeze' : 'streakAtRisk.body', language),
    };
  },
};
