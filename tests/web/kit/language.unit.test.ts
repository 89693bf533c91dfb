import { browserLanguage, localeOf } from '../../../web/kit/language';

describe('the default language of both front ends', () => {
  it.each([
    [['de-DE', 'en-US'], 'de'],
    [['de-AT'], 'de'],
    [['en-GB', 'de'], 'en'],
    [['fr-FR', 'en-US'], 'en'],
    [['fr-FR'], 'de'],
    [['fr-FR', 'it'], 'de'],
    [[], 'de'],
  ])('%j → %s', (languages, expected) => {
    expect(browserLanguage(languages)).toBe(expected);
  });

  it('writes numbers and dates of German as in Germany and of English as in Britain', () => {
    expect([localeOf('de'), localeOf('en')]).toEqual(['de-DE', 'en-GB']);
  });
});
