import * as v from 'valibot';
import { otherLanguage, type Language } from './language';

/** A text given per language, either one optional: `{ "de": "Vereinspokal", "en": "Club cup" }`. */
export type LocalizedText = Partial<Record<Language, string>>;

/** A text present in both languages (a message parameter resolved for either reader). */
export type BilingualText = Record<Language, string>;

/**
 * The text in `language`, else in the other language, else `fallback` (the single text a row had
 * before it carried languages). Pure.
 */
export function pickText(texts: LocalizedText | null | undefined, language: Language, fallback: string): string;
export function pickText(texts: LocalizedText | null | undefined, language: Language, fallback: string | null): string | null;
export function pickText(texts: LocalizedText | null | undefined, language: Language, fallback: string | null): string | null {
  return texts?.[language] ?? fallback ?? texts?.[otherLanguage(language)] ?? null;
}

/** Both languages of a text, each falling back as pickText does. */
export function bothLanguages(texts: LocalizedText | null | undefined, fallback: string): BilingualText {
  return { de: pickText(texts, 'de', fallback), en: pickText(texts, 'en', fallback) };
}

/** A request body's texts per language (`titles: { de?, en? }`), each checked by `text`. */
export function localizedTextSchema<S extends v.GenericSchema<unknown, string>>(text: S) {
  return v.strictObject({ de: v.optional(text), en: v.optional(text) });
}
