import type { Digest } from '../../deliveryDecision';
import type { Language } from '../../contactSchemas';
import type { Category } from '../../record';
import { textOf, type TextParameters } from '../../../i18n/catalogue';
import { NOTIFICATION_TEXTS, type NotificationTextKey } from '../../../i18n/notificationTexts';

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

/** Subject, plain text and HTML of one email, in the recipient's language. Pure. */
export function renderEmail(content: EmailContent): RenderedEmail {
  const say = (key: NotificationTextKey, parameters: TextParameters = {}) => textOf(NOTIFICATION_TEXTS, key, content.language, parameters);
  const first = content.items[0];
  const count = content.items.length;
  const subject = content.digest
    ? `${say(`summary.${content.digest}`)}: ${count === 1 ? say('count.one') : say('count.many', { count })}`
    : oneLine(first?.title ?? content.senderName);
  const unsubscribe = content.unsubscribeCategory
    ? say('unsubscribe.category', { category: say(`category.${content.unsubscribeCategory}`) })
    : say('unsubscribe.all');
  const footer = say('email.footer', { sender: content.senderName });

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
