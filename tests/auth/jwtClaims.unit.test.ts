import { SignJWT, type JWTPayload } from 'jose';
import { createTokenVerifier, TokenRejected } from '../../shared/auth/jwt';

/** Forged but correctly signed HS256 tokens: the verifier must still refuse claims it cannot trust. */
describe('claims a signed token must carry in good form', () => {
  const settings = {
    AUTH_JWT_SECRET: 'a-local-secret-long-enough-for-hs256-signing',
    AUTH_JWKS_URL: undefined,
    AUTH_ISSUER: 'https://issuer.example.test',
    AUTH_AUDIENCE: 'api://shooting-club',
  };
  const verify = createTokenVerifier(settings);

  function sign(claims: JWTPayload, { exp = true }: { exp?: boolean } = {}): Promise<string> {
    const jwt = new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(settings.AUTH_ISSUER)
      .setAudience(settings.AUTH_AUDIENCE);
    if (exp) jwt.setExpirationTime('10m');
    return jwt.sign(new TextEncoder().encode(settings.AUTH_JWT_SECRET));
  }

  it('accepts a well-formed token, astral characters included', async () => {
    await expect(verify(await sign({ sub: 'schütze-🎯', roles: ['platform_admin'], name: 'Anna 🎯 Schütz' }))).resolves.toEqual({
      userId: 'schütze-🎯',
      roles: ['platform_admin'],
      signIn: { name: 'Anna 🎯 Schütz', recorded: false },
    });
  });

  it('refuses a token without exp', async () => {
    await expect(verify(await sign({ sub: 'user-1' }, { exp: false }))).rejects.toThrow(new TokenRejected('The token has no exp claim.'));
  });

  it.each([
    ['a lone high surrogate in sub', { sub: 'user-\ud800' }],
    ['a lone low surrogate in sub', { sub: 'user-\udc00' }],
    ['a lone surrogate in a role', { sub: 'user-1', roles: ['platform_admin', '\ud83c'] }],
    ['a lone surrogate in a nested claim', { sub: 'user-1', extra: { name: 'x\udfff' } }],
    ['a lone surrogate in a claim name', { sub: 'user-1', ['k\ud800']: 1 }],
  ])('refuses %s', async (_case, claims) => {
    await expect(verify(await sign(claims))).rejects.toThrow(/not well-formed Unicode/);
  });

  it('never maps two subjects with different lone surrogates to one user', async () => {
    const outcomes = await Promise.allSettled([verify(await sign({ sub: 'u\ud800' })), verify(await sign({ sub: 'u\ud801' }))]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);
  });

  it.each([
    ['NUL', 'user\u0000'],
    ['a line break', 'user\nadmin'],
    ['DEL', 'user\u007f'],
    ['a line separator', 'user\u2028admin'],
    ['a right-to-left override', 'user\u202enimda'],
    ['a zero-width space', 'demo\u200bleader'],
  ])('refuses a sub with %s', async (_case, sub) => {
    await expect(verify(await sign({ sub }))).rejects.toThrow(/sub claim/);
  });
});
