import { initialsOf } from '../../shared/people/initials';

describe('initials of a name', () => {
  it.each([
    ['Anna Maria Schütz', 'AS'],
    ['anna schütz', 'AS'],
    ['Ümit', 'Ü'],
    ['  Jörg   Östermann  ', 'JÖ'],
    ['Дмитрий Иванов', 'ДИ'],
    ['Γιώργος Παπαδόπουλος', 'ΓΠ'],
    ['山田 太郎', '山太'],
    ['(Toni) Berger', 'TB'],
    ['Demo Member 1', 'D1'],
    ['e\u0301mile zola', 'ÉZ'],
    ['- Anna -- Maria Schütz ---', 'AS'],
    ['Anna ---', 'A'],
    ['--- Ümit', 'Ü'],
    ['--- ---', '-'],
  ])('%s → %s', (name, initials) => {
    expect(initialsOf(name)).toBe(initials);
  });

  it('gives the same initials for a name read again, also after many other names', () => {
    expect(initialsOf('Anna Maria Schütz')).toBe('AS');
    for (let n = 0; n < 25_000; n += 1) expect(initialsOf(`Person ${n}`)).toBe(`P${String(n)[0]}`);
    expect(initialsOf('Anna Maria Schütz')).toBe('AS');
    expect(initialsOf('Дмитрий Иванов')).toBe('ДИ');
  });

  it('never splits a character made of two code units', () => {
    expect(initialsOf('𝐀lice 𝐁ob')).toBe('𝐀𝐁');
    expect(initialsOf('🎯 🎯')).toBe('🎯');
  });
});

describe('initials of names in Latin letters, read without the grapheme segmenter', () => {
  const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  // The rule of initialsOf written with the segmenter for every text, as before the shortcut.
  const segmented = (name: string): string => {
    const graphemes = (text: string) => Array.from(segmenter.segment(text), (part) => part.segment);
    const words = name
      .trim()
      .split(/\s+/u)
      .map((word) => graphemes(word).find((grapheme) => /^[\p{L}\p{N}]/u.test(grapheme)))
      .filter((letter): letter is string => letter !== undefined);
    if (words.length === 0) return (graphemes(name.trim())[0] ?? '').toLocaleUpperCase().normalize('NFC');
    return (words[0]! + (words.length > 1 ? words[words.length - 1]! : '')).toLocaleUpperCase().normalize('NFC');
  };

  it('gives what the segmenter gives for names of every character of U+0020..U+024F', () => {
    const characters: string[] = [];
    for (let code = 0x20; code <= 0x24f; code += 1) if (code < 0x7f || code >= 0xa0) characters.push(String.fromCharCode(code));
    // Each character as a name of its own, first and last in a name, and after a non-letter.
    for (const character of characters) {
      for (const name of [character, `${character}x y${character}`, `(${character}) -${character}`, ` ${character}  `]) {
        expect([name, initialsOf(name)]).toEqual([name, segmented(name)]);
      }
    }
  });

  it('still reads combining marks, emoji and other scripts with the segmenter', () => {
    for (const name of ['Jo\u0308rg Mu\u0308ller', 'ñ\u0303o', '👩‍🔬 Curie', 'Zoë 🇩🇪', 'ÿ\u0308']) {
      expect([name, initialsOf(name)]).toEqual([name, segmented(name)]);
    }
  });
});
