import * as v from 'valibot';
import { CatalogQuerySchema, ReportedClubSchema } from '../../shared/clubMaster/schemas';

describe('ReportedClubSchema', () => {
  it.each([
    [
      { vereinsId: '12345', name: 'SV Tell' },
      { vereinsId: '12345', name: 'SV Tell' },
    ],
    [
      { vereinsId: '  A-1.b_2/3 ', name: '  Schützenverein Hubertus e.V.  ' },
      { vereinsId: 'A-1.b_2/3', name: 'Schützenverein Hubertus e.V.' },
    ],
    [
      { vereinsId: 'x'.repeat(32), name: 'n'.repeat(200) },
      { vereinsId: 'x'.repeat(32), name: 'n'.repeat(200) },
    ],
    // A surrogate pair is well-formed; right-to-left letters need no controls.
    [
      { vereinsId: '7', name: 'FC 😀 İzmir' },
      { vereinsId: '7', name: 'FC 😀 İzmir' },
    ],
    [
      { vereinsId: '8', name: 'نادي الرياضة' },
      { vereinsId: '8', name: 'نادي الرياضة' },
    ],
  ])('accepts %j', (input, output) => {
    expect(v.parse(ReportedClubSchema, input)).toEqual(output);
  });

  it.each<[string, unknown]>([
    ['empty number', { vereinsId: '  ', name: 'x' }],
    ['number too long', { vereinsId: 'x'.repeat(33), name: 'x' }],
    ['number with a space inside', { vereinsId: '12 34', name: 'x' }],
    ['number with a quote', { vereinsId: "12'", name: 'x' }],
    ['number not a string', { vereinsId: 12, name: 'x' }],
    ['empty name', { vereinsId: '1', name: '' }],
    ['name too long', { vereinsId: '1', name: 'n'.repeat(201) }],
    ['name with a newline', { vereinsId: '1', name: 'a\nb' }],
    ['name with NUL', { vereinsId: '1', name: 'a\u0000b' }],
    ['name missing', { vereinsId: '1' }],
    ['name with a lone high surrogate', { vereinsId: '1', name: 'a\ud800b' }],
    ['name with a lone low surrogate', { vereinsId: '1', name: 'a\udc00b' }],
    ...['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069'].map(
      (c) =>
        [`name with bidi control U+${c.codePointAt(0)!.toString(16).toUpperCase()}`, { vereinsId: '1', name: `SV${c}Eins` }] as [
          string,
          unknown,
        ],
    ),
    ...['\u200b', '\u200c', '\u200d', '\u200e', '\u200f', '\ufeff'].map(
      (c) =>
        [`name with zero-width U+${c.codePointAt(0)!.toString(16).toUpperCase()}`, { vereinsId: '1', name: `SV${c}Eins` }] as [
          string,
          unknown,
        ],
    ),
    ...['\u2060', '\u061c', '\u180e', '\u206a', '\ufff9', '\u{e0041}', '\u00ad', '\u3164', '\u034f'].map(
      (c) =>
        [`name with invisible U+${c.codePointAt(0)!.toString(16).toUpperCase()}`, { vereinsId: '1', name: `SV${c}Eins` }] as [
          string,
          unknown,
        ],
    ),
  ])('rejects %s', (_label, input) => {
    expect(v.safeParse(ReportedClubSchema, input).success).toBe(false);
  });
});

describe('CatalogQuerySchema', () => {
  it('fills defaults', () => {
    expect(v.parse(CatalogQuerySchema, {})).toEqual({ limit: 50, offset: 0 });
  });
  it.each([
    { limit: '0' },
    { limit: '201' },
    { limit: 'x' },
    { offset: '-1' },
    { status: 'deleted' },
    { q: 'q'.repeat(101) },
    { q: 'a\u0000' },
    { q: 'a\u001b[0m' },
    { q: '\u0085' },
  ])('rejects %j', (query) => {
    expect(v.safeParse(CatalogQuerySchema, query).success).toBe(false);
  });
});
