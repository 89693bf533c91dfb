import { defineCatalogue } from './catalogue';

/**
 * The email that confirms a contact address, German first, sent in the recipient's stored language
 * (the language saved with the address). Add a key to both languages; the catalogue test fails when
 * one is missing or an English text was copied into the German side.
 */
export const CONTACT_TEXTS = defineCatalogue({
  de: {
    'confirmation.subject': 'Bitte bestätigen Sie Ihre E-Mail-Adresse',
    'confirmation.greeting': 'Sie möchten Benachrichtigungen Ihres Schützenvereins an diese Adresse bekommen.',
    'confirmation.action': 'Adresse bestätigen',
    'confirmation.validity': 'Der Link gilt 24 Stunden und nur einmal.',
    'confirmation.notYou': 'Wenn Sie das nicht waren, ignorieren Sie diese E-Mail einfach; die Adresse wird dann nicht verwendet.',
    'confirmation.footer': 'Diese E-Mail kommt von {sender}.',
  },
  en: {
    'confirmation.subject': 'Please confirm your email address',
    'confirmation.greeting': 'You asked to receive notifications from your shooting club at this address.',
    'confirmation.action': 'Confirm address',
    'confirmation.validity': 'The link works once, for 24 hours.',
    'confirmation.notYou': 'If this was not you, simply ignore this email; the address will not be used.',
    'confirmation.footer': 'This email comes from {sender}.',
  },
});
