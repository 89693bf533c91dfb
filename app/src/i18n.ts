import { localeOf, type Language } from '../../web/kit/language';
import { translator, type Dictionaries } from '../../web/kit/translator';
import type { en } from './texts/en';

export type TextKey = keyof typeof en;

/**
 * The texts of the languages loaded so far. Each language is a chunk of its own (about half of
 * the script is texts): the page loads the one in use before it draws (main.tsx), the other only
 * when the member switches (docs/decisions/009-member-app-ui.md).
 */
const TEXTS: Partial<Record<Language, Readonly<Record<TextKey, string>>>> = {};

/** Loads the texts of `language` (once); call it before `setLanguage(language)`. */
export async function loadTexts(language: Language): Promise<void> {
  TEXTS[language] ??= language === 'de' ? (await import('./texts/de')).de : (await import('./texts/en')).en;
}

/** Numbers in a text (`{count}`) are written for the language, one decimal at most. */
export const { t, language, setLanguage } = translator(TEXTS as Dictionaries<TextKey>, (value, language) => numberIn(language, value));

function numberIn(language: Language, value: number, digits = 1): string {
  return new Intl.NumberFormat(localeOf(language), { maximumFractionDigits: digits }).format(value);
}

export function formatNumber(value: number, digits = 1): string {
  return numberIn(language(), value, digits);
}

export function formatDate(iso: string): string {
  return new Intl.DateTimeFormat(localeOf(language()), { dateStyle: 'medium' }).format(new Date(iso));
}

export function formatDateTime(iso: string): string {
  return new Intl.DateTimeFormat(localeOf(language()), { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}
