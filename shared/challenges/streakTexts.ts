import type { Language } from '../notifications/contactSchemas';

/** The inbox entry that announces a streak about to break, in the member's language. */
export const STREAK_TEXTS = {
  de: {
    title: (weeks: number) => `Serie von ${weeks} Wochen: noch kein Training diese Woche`,
    body: 'Du hast diese Woche noch nicht trainiert. Ohne Training bis Sonntag, 24 Uhr, endet deine Serie.',
    bodyWithFreeze:
      'Du hast diese Woche noch nicht trainiert. Ohne Training bis Sonntag, 24 Uhr, verbraucht die Woche den Joker dieses Monats.',
  },
  en: {
    title: (weeks: number) => `${weeks}-week streak: no training this week yet`,
    body: 'You have not trained this week yet. Without a session before Sunday midnight, your streak ends.',
    bodyWithFreeze: 'You have not trained this week yet. Without a session before Sunday midnight, this week uses up this month’s freeze.',
  },
} as const satisfies Record<Language, unknown>;
