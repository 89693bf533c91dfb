import type { Page } from 'playwright-core';
import { de } from '../../app/src/texts/de';
import { en } from '../../app/src/texts/en';

/** Opens the app at `hash` in German and signs in with `token` through the developer form, as a German member would. */
export async function signInGerman(page: Page, baseUrl: string, token: string, hash = '#/challenges?tab=global'): Promise<void> {
  await page.goto(`${baseUrl}/app/${hash}`);
  await page.getByLabel('Bearer-Token').fill(token);
  await page.getByRole('button', { name: 'Anmelden' }).click();
  await page.getByRole('navigation', { name: 'Hauptnavigation' }).waitFor();
}

/**
 * The phrases of one catalogue that the other never uses: each text cut at its placeholders,
 * pieces of four letters or more that appear in no text of the other language (so "Challenges",
 * "Global" or "XP", the same in both, are no evidence of either).
 */
export function phrasesOnlyIn(language: 'de' | 'en'): string[] {
  const own = Object.values(language === 'de' ? de : en);
  const other = Object.values(language === 'de' ? en : de);
  const pieces = own.flatMap((text) =>
    text.split(/\{\w+\}/).map((piece) => piece.replace(/^[\s:;,.·()“”„"'–-]+|[\s:;,.·()“”„"'–-]+$/g, '')),
  );
  return [...new Set(pieces)].filter((piece) => /\p{L}{4}/u.test(piece) && !other.some((text) => text.includes(piece)));
}

/** The phrases of `phrases` that `text` shows as whole words. */
export function phrasesShown(text: string, phrases: readonly string[]): string[] {
  const escape = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return phrases.filter((phrase) => new RegExp(`(?<![\\p{L}])${escape(phrase)}(?![\\p{L}])`, 'u').test(text));
}
