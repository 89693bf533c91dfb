/**
 * The label switch: the language in use, its locale, and `t()`. The labels themselves are in
 * labels.ts; the default language follows the browser (web/kit/language.ts).
 */
import { localeOf, storedLanguage, type Language } from '../../web/kit/language';
import { translator } from '../../web/kit/translator';
import { de, en, type Key } from './labels';

export type { Key };
export type { Language };

const STORAGE_KEY = 'portal.language';
const labels = translator<Key>({ de, en });

export const { t, language } = labels;

export function initLanguage(): Language {
  labels.setLanguage(storedLanguage(STORAGE_KEY));
  document.documentElement.lang = language();
  return language();
}

export function setLanguage(language: Language): void {
  labels.setLanguage(language);
  localStorage.setItem(STORAGE_KEY, language);
  document.documentElement.lang = language;
}

/** The locale used for numbers and dates. */
export function locale(): string {
  return localeOf(language());
}
