import type { Language } from '../../contactSchemas';
import { textOf } from '../../../i18n/catalogue';
import { CONTACT_TEXTS } from '../../../i18n/contactTexts';
import { escapeHtml, type RenderedEmail } from './emailTemplates';

/** The email with a contact confirmation link, in the member's language. Pure. */
export function renderConfirmationEmail(content: { language: Language; senderName: string; url: string }): RenderedEmail {
  const { language } = content;
  const text = (key: keyof typeof CONTACT_TEXTS.de) => textOf(CONTACT_TEXTS, key, language, { sender: content.senderName });
  const [subject, greeting, action, validity, notYou, footer] = [
    text('confirmation.subject'),
    text('confirmation.greeting'),
    text('confirmation.action'),
    text('confirmation.validity'),
    text('confirmation.notYou'),
    text('confirmation.footer'),
  ];
  const plainText = [greeting, '', `${action}: ${content.url}`, '', validity, notYou, '', '--', footer].join('\n');
  const html = [
    `<!doctype html><html lang="${language}"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head><body>`,
    `<p>${escapeHtml(greeting)}</p>`,
    `<p><a href="${escapeHtml(content.url)}">${escapeHtml(action)}</a></p>`,
    `<p>${escapeHtml(validity)}<br>${escapeHtml(notYou)}</p>`,
    `<hr><p><small>${escapeHtml(footer)}</small></p>`,
    '</body></html>',
  ].join('\n');
  return { subject, plainText, html };
}
