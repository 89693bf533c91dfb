import { verifiedEmailOf } from '../../shared/auth/signInEmail';

describe('the address a sign-in vouches for', () => {
  it('is the email claim when email_verified is true', () => {
    expect(verifiedEmailOf({ email: 'anna@example.org', email_verified: true })).toBe('anna@example.org');
  });

  it.each([
    ['not verified', { email: 'anna@example.org', email_verified: false }],
    ['verified only as a string', { email: 'anna@example.org', email_verified: 'true' }],
    ['without email_verified', { email: 'anna@example.org' }],
    ['without an email', { email_verified: true }],
    ['not an address', { email: 'anna.example.org', email_verified: true }],
    ['with a line break', { email: 'anna@example.org\r\nBcc: all@example.org', email_verified: true }],
    ['longer than any mailbox', { email: `${'a'.repeat(250)}@example.org`, email_verified: true }],
    ['not a string', { email: 42, email_verified: true }],
  ])('is none %s', (_case, claims) => {
    expect(verifiedEmailOf(claims)).toBeUndefined();
  });
});
