import type { Digest } from '../../deliveryDecision';
import type { Language } from '../../contactSchemas';
import type { Category } from '../../record';

export interface EmailItem {
  title: string;
  body: string | null;
}

export interface EmailContent {
  language: Language;
  /** Shown as the sender in the greeting line and footer: the club's or the platform's name. */
  senderName: string;
  items: readonly EmailItem[];
  /** Set for a summary; a single message otherwise. */
  digest: Digest | null;
  /** The category the unsubscribe link switches off; null: all emails. */
  unsubscribeCategory: Category | null;
  unsubscribeUrl: string;
}

export interface RenderedEmail {
  subject: string;
  plainText: string;
  html: string;
}

const TEXT = {
  de: {
    summary: {
      daily: 'Ihre tägliche Zusammenfassung',
      weekly: 'Ihre wöchentliche Zusammenfassung',
      monthly: 'Ihre monatliche Zusammenfassung',
    },
    count: (n: number) => (n === 1 ? '1 Benachrichtigung' : `${n} Benachrichtigungen`),
    category: { training: 'Training', competition: 'Wettkampf', board: 'Vorstand', youth: 'Jugend', club: 'Verein' },
    unsubscribeCategory: (name: string) => `Keine E-Mails der Kategorie „${name}“ mehr erhalten`,
    unsubscribeAll: 'Keine E-Mail-Benachrichtigungen mehr erhalten',
    footer: (sender: string) => `Diese E-Mail kommt von ${sender}. Ihre Einstellungen ändern Sie in der App.`,
  },
  en: {
    summary: { daily: 'Your daily summary', weekly: 'Your weekly summary', monthly: 'Your monthly summary' },
    count: (n: number) => (n === 1 ? '1 notification' : `${n} notifications`),
    category: { training: 'Training', competition: 'Competition', board: 'Board', youth: 'Youth', club: 'Club' },
    unsubscribeCategory: (name: string) => `Stop emails of the category "${name}"`,
    unsubscribeAll: 'Stop all notification emails',
    footer: (sender: string) => `This email comes from ${sender}. Change your settings in the app.`,
  },
} as const;

/** Subject, plain text and HTML of one email, in the recipient's language. Pure. */
export function renderEmail(content: EmailContent): RenderedEmail {
  const text = TEXT[content.language];
  const first = content.items[0];
  const subject = content.digest
    ? `${text.summary[content.digest]}: ${text.count(content.items.length)}`
    : oneLine(first?.title ?? content.senderName);
  const unsubscribe = content.unsubscribeCategory
    ? text.unsubscribeCategory(text.category[content.unsubscribeCategory])
    : text.unsubscribeAll;
  const footer = text.footer(content.senderName);

  const plainItems = content.items.map((item) => (item.body ? `${item.title}\n${item.body}` : item.title));
  const plainText = [
    ...(content.digest ? [subject, ''] : []),
    plainItems.join('\n\n---\n\n'),
    '',
    '--',
    footer,
    `${unsubscribe}: ${content.unsubscribeUrl}`,
  ].join('\n');

  const htmlItems = content.items
    .map((item) => `<h2>${escapeHtml(item.title)}</h2>${item.body ? `<p>${escapeHtml(item.body).replace(/\n/g, '<br>')}</p>` : ''}`)
    .join('\n<hr>\n');
  const html = [
    `<!doctype html><html lang="${content.language}"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head><body>`,
    content.digest ? `<h1>${escapeHtml(subject)}</h1>` : '',
    htmlItems,
    `<hr><p><small>${escapeHtml(footer)}<br><a href="${escapeHtml(content.unsubscribeUrl)}">${escapeHtml(unsubscribe)}</a></small></p>`,
    '</body></html>',
  ].join('\n');
  return { subject, plainText, html };
}

/** A subject is one line: a title's line breaks would end the header. */
function oneLine(value: string): string {
  return value.replace(/[\r\n]+/g, ' ').slice(0, 200);
}

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
