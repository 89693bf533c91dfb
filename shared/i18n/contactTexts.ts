import type { Language } from './contactSchemas';

/** What the contact email's confirmation writes, in the recipient's language. */
export const CONTACT_TEXTS = {
  de: {
    subject: 'Bitte bestätigen Sie Ihre E-Mail-Adresse',
    greeting: 'Sie möchten Benachrichtigungen Ihres Schützenvereins an diese Adresse bekommen.',
    action: 'Adresse bestätigen',
    validity: 'Der Link gilt 24 Stunden und nur einmal.',
    notYou: 'Wenn Sie das nicht waren, ignorieren Sie diese E-Mail einfach; die Adresse wird dann nicht verwendet.',
    footer: (sender: string) => `Diese E-Mail kommt von ${sender}.`,
  },
  en: {
    subject: 'Please confirm your email address',
    greeting: 'You asked to receive notifications from your shooting club at this address.',
    action: 'Confirm address',
    validity: 'The link works once, for 24 hours.',
    notYou: 'If this was not you, simply ignore this email; the address will not be used.',
    footer: (sender: string) => `This email comes from ${sender}.`,
  },
} as const satisfies Record<Language, unknown>;
