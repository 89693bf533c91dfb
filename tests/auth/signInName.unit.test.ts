import { signInNameOf } from '../../shared/auth/signInName';

describe('the display name a sign-in suggests', () => {
  it('takes the name claim first', () => {
    expect(signInNameOf({ name: 'Anna Schütz', given_name: 'A', family_name: 'S', email: 'x@example.org' })).toBe('Anna Schütz');
  });

  it('falls back to given and family name, then the part before the @ of the username or email', () => {
    expect(signInNameOf({ given_name: 'Anna', family_name: 'Schütz' })).toBe('Anna Schütz');
    expect(signInNameOf({ given_name: 'Anna' })).toBe('Anna');
    expect(signInNameOf({ preferred_username: 'anna.schuetz@verein.de', email: 'other@example.org' })).toBe('anna.schuetz');
    expect(signInNameOf({ email: 'toni@example.org' })).toBe('toni');
  });

  it('suggests nothing when no claim gives a name', () => {
    expect(signInNameOf({})).toBeUndefined();
    expect(signInNameOf({ name: '   ', email: '@example.org', roles: ['x'] })).toBeUndefined();
    expect(signInNameOf({ name: 42 })).toBeUndefined();
  });

  it('makes a name displayable: no line breaks, bidi overrides or zero-width characters, one space between words', () => {
    expect(signInNameOf({ name: 'Anna\n\u202eSchütz\u200b  Jr.' })).toBe('Anna Schütz Jr.');
    expect(signInNameOf({ name: '\u200b\u2028', given_name: 'Toni' })).toBe('Toni');
  });

  it('cuts a long name to 50 characters without splitting a character', () => {
    expect(signInNameOf({ name: 'A'.repeat(80) })).toBe('A'.repeat(50));
    const cut = signInNameOf({ name: `${'A'.repeat(49)}🎯 rest` });
    expect(cut).toBe('A'.repeat(49));
  });
});
