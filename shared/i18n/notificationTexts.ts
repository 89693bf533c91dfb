import { defineCatalogue } from './catalogue';

/**
 * The delivery's own words around what producers wrote, German first: summary emails and pushes,
 * the email footer and its unsubscribe line, the category names. Written in the recipient's stored
 * language (docs/languages.md).
 */
export const NOTIFICATION_TEXTS = defineCatalogue(
  {
    de: {
      'summary.daily': 'Ihre tägliche Zusammenfassung',
      'summary.weekly': 'Ihre wöchentliche Zusammenfassung',
      'summary.monthly': 'Ihre monatliche Zusammenfassung',
      'count.one': '1 Benachrichtigung',
      'count.many': '{count} Benachrichtigungen',
      'category.training': 'Training',
      'category.competition': 'Wettkampf',
      'category.board': 'Vorstand',
      'category.youth': 'Jugend',
      'category.club': 'Verein',
      'unsubscribe.category': 'Keine E-Mails der Kategorie „{category}“ mehr erhalten',
      'unsubscribe.all': 'Keine E-Mail-Benachrichtigungen mehr erhalten',
      'email.footer': 'Diese E-Mail kommt von {sender}. Ihre Einstellungen ändern Sie in der App.',
      'push.many': '{count} neue Benachrichtigungen',
      'push.more': 'und {count} weitere',
    },
    en: {
      'summary.daily': 'Your daily summary',
      'summary.weekly': 'Your weekly summary',
      'summary.monthly': 'Your monthly summary',
      'count.one': '1 notification',
      'count.many': '{count} notifications',
      'category.training': 'Training',
      'category.competition': 'Competition',
      'category.board': 'Board',
      'category.youth': 'Youth',
      'category.club': 'Club',
      'unsubscribe.category': 'Stop emails of the category "{category}"',
      'unsubscribe.all': 'Stop all notification emails',
      'email.footer': 'This email comes from {sender}. Change your settings in the app.',
      'push.many': '{count} new notifications',
      'push.more': 'and {count} more',
    },
  },
  // The same word in both languages.
  ['category.training'],
);

export type NotificationTextKey = keyof typeof NOTIFICATION_TEXTS.de;
