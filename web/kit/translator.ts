import type { Language } from './language';

/** The texts of one front end: German and English, each with every key. */
export type Dictionaries<Key extends string> = Readonly<Record<Language, Readonly<Record<Key, string>>>>;

export interface Translator<Key extends string> {
  /** The text of `key` in the current language, with `{name}` placeholders filled in. */
  t: (key: Key, values?: Record<string, string | number>) => string;
  language: () => Language;
  setLanguage: (language: Language) => void;
}

/**
 * The label switch of a front end: the language in use and `t()`. `number` writes a number
 * placeholder (the app formats it for the language; the portal writes it as it is).
 */
export function translator<Key extends string>(
  dictionaries: Dictionaries<Key>,
  number: (value: number, language: Language) => string = String,
): Translator<Key> {
  let current: Language = 'de';
  return {
    t: (key, values = {}) =>
      dictionaries[current][key].replace(/\{(\w+)\}/g, (whole, name: string) => {
        const value = values[name];
        return value === undefined ? whole : typeof value === 'number' ? number(value, current) : value;
      }),
    language: () => current,
    setLanguage: (language) => {
      current = language;
    },
  };
}
