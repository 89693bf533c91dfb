import * as v from 'valibot';
import { humanTextSchema } from '../../shared/validation/humanText';

describe('humanTextSchema: names that display as what they are', () => {
  const Name = humanTextSchema(50);

  it.each(['SV Tell', 'Schützenverein Hubertus e.V.', 'FC 😀 İzmir', 'نادي الرياضة', 'Ηρακλής', '射击俱乐部', 'क्लब'])(
    'accepts %s',
    (name) => {
      expect(v.parse(Name, `  ${name} `)).toBe(name);
    },
  );

  it.each([
    ['WORD JOINER', '\u2060'],
    ['ARABIC LETTER MARK', '\u061c'],
    ['MONGOLIAN VOWEL SEPARATOR', '\u180e'],
    ['INHIBIT SYMMETRIC SWAPPING', '\u206a'],
    ['INTERLINEAR ANNOTATION ANCHOR', '\ufff9'],
    ['TAG LATIN CAPITAL LETTER A', '\u{e0041}'],
    ['ZERO WIDTH SPACE', '\u200b'],
    ['RIGHT-TO-LEFT OVERRIDE', '\u202e'],
    ['FIRST STRONG ISOLATE', '\u2068'],
    ['SOFT HYPHEN', '\u00ad'],
    ['HANGUL FILLER', '\u3164'],
    ['COMBINING GRAPHEME JOINER', '\u034f'],
    ['BYTE ORDER MARK', '\ufeff'],
  ])('refuses %s inside a name', (_name, character) => {
    const result = v.safeParse(Name, `SV${character}Tell`);
    expect(result.success).toBe(false);
    expect(result.issues?.map((issue) => issue.message)).toEqual([
      'must not contain invisible format characters (bidi controls, zero-width and the like)',
    ]);
  });

  it.each([
    ['NUL', 'a\u0000b', 'must not contain control characters'],
    ['a C1 control', 'a\u0085b', 'must not contain control characters'],
    ['a line separator', 'a\u2028b', 'must not contain control characters'],
    ['a lone surrogate', 'a\ud800b', 'must be well-formed Unicode (no lone surrogates)'],
    ['nothing but a format character', '\u2060', 'must not contain invisible format characters (bidi controls, zero-width and the like)'],
  ])('refuses %s', (_case, text, message) => {
    expect(v.safeParse(Name, text).issues?.map((issue) => issue.message)).toContain(message);
  });

  it('refuses names over the length and empty ones', () => {
    expect(v.safeParse(Name, 'n'.repeat(51)).success).toBe(false);
    expect(v.safeParse(Name, '   ').success).toBe(false);
  });
});
