import { readerLanguage } from '../../shared/i18n/language';
import { bothLanguages, pickText } from '../../shared/i18n/localizedText';
import { formatText } from '../../shared/i18n/catalogue';

describe('the reader’s language', () => {
  it.each([
    ['de', 'en', 'de'],
    ['en', 'de', 'en'],
    ['de-AT,en;q=0.8', 'en', 'de'],
    ['fr-FR, en-GB;q=0.9, de;q=0.8', 'de', 'en'],
    ['EN-us', null, 'en'],
    ['de;q=0, en', 'de', 'en'],
    ['fr, it', 'en', 'en'],
    ['*', 'en', 'en'],
    ['', 'en', 'en'],
    [null, 'en', 'en'],
    [null, null, 'de'],
    ['fr', undefined, 'de'],
    ['deutsch', 'en', 'en'],
  ] as const)('Accept-Language %p with stored %p reads %p', (header, stored, expected) => {
    expect(readerLanguage(header, stored)).toBe(expected);
  });
});

describe('texts per language', () => {
  it('falls back to the single text, then to the other language', () => {
    expect(pickText({ de: 'Vereinspokal', en: 'Club cup' }, 'en', 'Pokal')).toBe('Club cup');
    expect(pickText({ en: 'Club cup' }, 'de', 'Pokal')).toBe('Pokal');
    expect(pickText({ en: 'Club cup' }, 'de', null)).toBe('Club cup');
    expect(pickText({}, 'de', null)).toBeNull();
    expect(pickText(null, 'en', 'Pokal')).toBe('Pokal');
    expect(bothLanguages({ en: 'Club cup' }, 'Pokal')).toEqual({ de: 'Pokal', en: 'Club cup' });
  });

  it('fills parameters in the language, numbers in its format', () => {
    expect(formatText('+{xp} XP: {title}', { xp: 1500, title: { de: 'Pokal', en: 'Cup' } }, 'de')).toBe('+1.500 XP: Pokal');
    expect(formatText('+{xp} XP: {title}', { xp: 1500, title: { de: 'Pokal', en: 'Cup' } }, 'en')).toBe('+1,500 XP: Cup');
    expect(formatText('{missing}', {}, 'de')).toBeUndefined();
  });
});
