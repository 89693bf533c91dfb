import { CHALLENGE_TEXTS } from '../../shared/i18n/challengeTexts';
import { PRESETS } from '../../shared/challenges/presets';
import { CLUB_TEXTS } from '../../shared/i18n/clubTexts';
import type { Catalogue } from '../../shared/i18n/catalogue';
import { CONTACT_TEXTS } from '../../shared/i18n/contactTexts';
import { FRESHNESS_TEXTS } from '../../shared/i18n/freshnessTexts';
import { NOTIFICATION_TEXTS } from '../../shared/i18n/notificationTexts';

/**
 * Every area's server texts. A new catalogue is added here with one line; a new key in an existing
 * catalogue is checked without any change here.
 */
const CATALOGUES: Record<string, Catalogue> = {
  challenges: CHALLENGE_TEXTS,
  clubs: CLUB_TEXTS,
  contact: CONTACT_TEXTS,
  freshness: FRESHNESS_TEXTS,
  notifications: NOTIFICATION_TEXTS,
};

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();

describe.each(Object.entries(CATALOGUES))('the %s catalogue', (_, catalogue) => {
  it('has every key in German and in English, none empty', () => {
    expect(Object.keys(catalogue.en).sort()).toEqual(Object.keys(catalogue.de).sort());
    for (const language of ['de', 'en'] as const) {
      for (const [key, text] of Object.entries(catalogue[language])) expect([key, text.trim().length > 0]).toEqual([key, true]);
    }
  });

  it('gives no German text that equals its English one, unless listed as the same in both', () => {
    const same = Object.keys(catalogue.de).filter((key) => catalogue.de[key] === catalogue.en[key]);
    expect(same.sort()).toEqual([...catalogue.sameInBoth].sort());
  });

  it('names the same parameters in both languages', () => {
    for (const key of Object.keys(catalogue.de)) {
      expect([key, placeholders(catalogue.en[key] ?? '')]).toEqual([key, placeholders(catalogue.de[key] ?? '')]);
    }
  });
});

describe('the presets', () => {
  const texts = PRESETS.flatMap(
    (preset) =>
      [
        [`${preset.key} title`, preset.title],
        [`${preset.key} description`, preset.description],
        [`${preset.key} badge name`, preset.badge.name],
        [`${preset.key} badge description`, preset.badge.description],
      ] as const,
  );

  it.each(texts)('%s is written in German and in English, differently', (_, text) => {
    expect(text.de.trim()).not.toBe('');
    expect(text.en.trim()).not.toBe('');
    expect(text.de).not.toBe(text.en);
  });

  it('write German numbers the German way', () => {
    // "9,0" and "2.000", never the English "9.0" or "2,000", in a German text.
    for (const [name, text] of texts) expect([name, /\d\.\d\b|\d,\d{3}/.test(text.de)]).toEqual([name, false]);
  });
});
