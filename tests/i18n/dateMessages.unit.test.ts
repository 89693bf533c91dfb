import { renderMessage } from '../../shared/i18n/messages';

// The formats behind these texts are made once per set of options, language and time zone and then
// reused: a reader of one language or zone never gets a date written for another, nor one kind of
// text the date form of another.
describe('messages with a date, rendered again and again', () => {
  const challenge = { de: 'Herbstpokal', en: 'Autumn cup' };
  const endsSoon = (language: 'de' | 'en') =>
    renderMessage({ key: 'challenges.endsSoon', params: { challenge, endsAt: '2026-11-30T18:00:00.000Z' } }, language)?.body;
  const recovered = (language: 'de' | 'en', timeZone: string) =>
    renderMessage(
      { key: 'freshness.recovered', params: { club: 'SV Musterdorf', evening: '2026-11-19T17:00:00.000Z', timeZone } },
      language,
    )?.body;

  it('writes the end of a challenge in each reader’s language, in German time, however the calls alternate', () => {
    for (let round = 0; round < 3; round += 1) {
      expect(endsSoon('de')).toBe('Deine Challenge endet am 30.11.2026, 19:00. Ein Training jetzt zählt noch.');
      expect(endsSoon('en')).toBe('Your challenge ends on 30 Nov 2026, 19:00. A training session now still counts.');
    }
  });

  it('writes a training evening on the club’s own clock, per language and time zone', () => {
    for (let round = 0; round < 3; round += 1) {
      expect(recovered('de', 'Europe/Berlin')).toBe(
        'Nach dem Trainingsabend am Donnerstag, 19. November 2026 um 18:00 sind wieder Schussdaten in der Cloud angekommen.',
      );
      expect(recovered('en', 'America/New_York')).toBe(
        'Shot data reached the cloud again after the training evening of Thursday, 19 November 2026 at 12:00.',
      );
      expect(recovered('en', 'Europe/Berlin')).toBe(
        'Shot data reached the cloud again after the training evening of Thursday, 19 November 2026 at 18:00.',
      );
    }
  });

  it('keeps each kind of text’s own date form in one language and time zone, however they alternate', () => {
    for (let round = 0; round < 3; round += 1) {
      expect(endsSoon('de')).toContain('am 30.11.2026, 19:00.');
      expect(recovered('de', 'Europe/Berlin')).toContain('am Donnerstag, 19. November 2026 um 18:00');
    }
  });

  it('leaves an entry of a time zone the runtime does not know to its stored text, each time', () => {
    expect(recovered('de', 'Mars/Olympus_Mons')).toBeUndefined();
    expect(recovered('de', 'Mars/Olympus_Mons')).toBeUndefined();
    expect(recovered('de', 'Europe/Berlin')).toContain('19. November 2026 um 18:00');
  });
});
