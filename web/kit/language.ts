/** The front ends' languages and how the default is chosen (no DOM here, so unit tests import it). */
export type Language = 'de' | 'en';
export const LANGUAGES: readonly Language[] = ['de', 'en'];

/** The browser's preferred language among German and English (German when it names neither first). */
export function browserLanguage(languages: readonly string[]): Language {
  for (const tag of languages) {
    const primary = tag.toLowerCase().split('-')[0];
    if (primary === 'de' || primary === 'en') return primary;
  }
  return 'de';
}

/** The locale for numbers and dates of a language. */
export function localeOf(language: Language): string {
  return language === 'de' ? 'de-DE' : 'en-GB';
}

/** The language saved under `key`, else the browser's. */
export function storedLanguage(key: string): Language {
  const saved = localStorage.getItem(key);
  return (LANGUAGES as readonly (string | null)[]).includes(saved)
    ? (saved as Language)
    : browserLanguage(navigator.languages ?? [navigator.language]);
}
