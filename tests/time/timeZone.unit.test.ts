import { canonicalTimeZone } from '../../shared/time/timeZone';

describe('canonical time zone names', () => {
  it('answers the canonical spelling however the name is written, first call and later alike', () => {
    const spellings = ['europe/berlin', 'Europe/Berlin', 'EUROPE/BERLIN', 'europe/berlin', 'eUROPE/bERLIN'];
    expect(spellings.map((name) => canonicalTimeZone(name))).toEqual(spellings.map(() => 'Europe/Berlin'));
  });

  it('keeps each zone apart', () => {
    expect(['america/new_york', 'Asia/Tokyo', 'utc', 'America/New_York'].map((name) => canonicalTimeZone(name))).toEqual([
      'America/New_York',
      'Asia/Tokyo',
      'UTC',
      'America/New_York',
    ]);
  });

  it('refuses unknown names every time, also after known ones were asked', () => {
    expect(canonicalTimeZone('Europe/Berlin')).toBe('Europe/Berlin');
    expect(canonicalTimeZone('Europe/Atlantis')).toBeUndefined();
    expect(canonicalTimeZone('Europe/Atlantis')).toBeUndefined();
    expect(canonicalTimeZone('+01:00')).toBeUndefined();
    expect(canonicalTimeZone('Europe/Berlin/')).toBeUndefined();
  });
});
