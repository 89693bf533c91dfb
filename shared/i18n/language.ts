/** The languages the service writes in: German first, English equal. */
export const LANGUAGES = ['de', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];

/** The language nobody chose: the clubs are German. */
export const DEFAULT_LANGUAGE: Language = 'de';

/**
 * The language a response is written in (docs/languages.md): the
 * first of `de`/`en` the request's Accept-Language names (`de-AT` counts as `de`, an entry with
 * `q=0` is a refusal and skipped), else the member's stored language, else German. Pure.
 *
 * The header's order decides, not its q-values: the member app sends exactly one language, and a
 * browser lists its languages in the order of preference anyway.
 */
export function readerLanguage(acceptLanguage: string | null | undefined, stored: Language | null | undefined): Language {
  return headerLanguage(acceptLanguage) ?? stored ?? DEFAULT_LANGUAGE;
}

/** The first of de/en named by an Accept-Language value, if any. */
export function headerLanguage(acceptLanguage: string | null | undefined): Language | undefined {
  if (!acceptLanguage) return undefined;
  for (const entry of acceptLanguage.slice(0, 1000).split(',')) {
    const [range = '', ...parameters] = entry.split(';').map((part) => part.trim().toLowerCase());
    if (parameters.some((parameter) => /^q\s*=\s*0(\.0*)?$/.test(parameter))) continue;
    const primary = range.split('-')[0];
    const language = LANGUAGES.find((candidate) => candidate === primary);
    if (language) return language;
  }
  return undefined;
}

/** The other of the two languages: where a text missing in one is looked for. */
export function otherLanguage(language: Language): Language {
  return language === 'de' ? 'en' : 'de';
}
