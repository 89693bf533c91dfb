import type { Language } from '../../contactSchemas';
import { CONTACT_TEXTS } from '../../contactTexts';
import { escapeHtml, type RenderedEmail } from './emailTemplates';

/** The email with a contact confirmation link, in the member's language. Pure. */
export function renderConfirmationEmail(content: { language: Language; senderName: string; url: string }): RenderedEmail {
  const text = CONTACT_TEXTS[content.language];
  const footer = text.footer(content.senderName);
  const plainText = [text.greeting, '', `${text.action}: ${content.url}`, '', text.validity, text.notYou, '', '--', footer].join('\n');
  const html = [
    `<!doctype html><html lang="${content.language}"><head><meta charset="utf-8"><title>${escapeHtml(text.subject)}</title></head><body>`,
    `<p>${escapeHtml(text.greeting)}</p>`,
    `<p><a href="${escapeHtml(content.url)}">${escapeHtml(text.action)}</a></p>`,
    `<p>${escapeHtml(text.validity)}<br>${escapeHtml(text.notYou)}</p>`,
    `<hr><p><small>${escapeHtml(footer)}</small></p>`,
    '</body></html>',
  ].join('\n');
  return { subject: text.subject, plainText, html };
}
