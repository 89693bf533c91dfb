import { browserLanguage, type Language } from './language';
/**
 * The label switch: the language in use, its locale, and `t()`. The labels themselves are in
 * labels.ts; the default language follows the browser (language.ts).
 */
import { de, en, type Key } from './labels';

export type { Key };
export type { Language };

const DICTIONARIES: Record<Language, Record<Key, string>> = { de, en };
const STORAGE_KEY = 'portal.language';

let current: Language = 'de';

export function initLanguage(): Language {
  const saved = localStorage.getItem(STORAGE_KEY);
  current = saved === 'de' || saved === 'en' ? saved : browserLanguage(navigator.languages ?? [navigator.language]);
  document.documentElement.lang = current;
  return current;
}

export function setLanguage(language: Language): void {
  current = language;
  localStorage.setItem(STORAGE_KEY, language);
  document.documentElement.lang = language;
}

export function language(): Language {
  return current;
}

/** The locale used for numbers and dates. */
export function locale(): string {
  return current === 'de' ? 'de-DE' : 'en-GB';
}

/** The label in the current language, `{name}` placeholders filled in. */
export function t(key: Key, values: Record<string, string | number> = {}): string {
  return DICTIONARIES[current][key].replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}
