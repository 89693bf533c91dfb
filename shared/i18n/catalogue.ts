import type { Language } from './language';
import type { BilingualText } from './localizedText';

/**
 * An area's server texts: the same keys in German and English, German first. A text may name
 * parameters in braces (`{xp}`), filled by formatText. Keys that are the same word in both
 * languages on purpose ("Training") are listed in `sameInBoth`, so the catalogue test can tell them
 * from a forgotten translation.
 */
export interface Catalogue<K extends string = string> {
  readonly de: Readonly<Record<K, string>>;
  readonly en: Readonly<Record<K, string>>;
  readonly sameInBoth: readonly K[];
}

export function defineCatalogue<const K extends string>(
  texts: { de: Record<K, string>; en: Record<K, string> },
  sameInBoth: readonly NoInfer<K>[] = [],
): Catalogue<K> {
  return { de: texts.de, en: texts.en, sameInBoth };
}

/** A value a text's parameter takes: as is, a number in the language's format, or a text per language. */
export type TextParameter = string | number | BilingualText;
export type TextParameters = Readonly<Record<string, TextParameter>>;

const NUMBER_FORMAT: Record<Language, Intl.NumberFormat> = {
  de: new Intl.NumberFormat('de-DE', { maximumFractionDigits: 2 }),
  en: new Intl.NumberFormat('en-GB', { maximumFractionDigits: 2 }),
};

/**
 * The template with its `{name}` parameters filled in `language`; undefined when the template
 * names a parameter that is not given (a stored message older than its text), so the caller can
 * fall back to what was stored. Pure.
 */
export function formatText(template: string, parameters: TextParameters, language: Language): string | undefined {
  let missing = false;
  const text = template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = parameters[name];
    if (value === undefined) {
      missing = true;
      return '';
    }
    if (typeof value === 'number') return NUMBER_FORMAT[language].format(value);
    return typeof value === 'string' ? value : value[language];
  });
  return missing ? undefined : text;
}

/** The catalogue's text for `key` in `language`, filled with the parameters. */
export function textOf<K extends string>(catalogue: Catalogue<K>, key: K, language: Language, parameters: TextParameters = {}): string {
  return formatText(catalogue[language][key], parameters, language) ?? catalogue[language][key];
}
