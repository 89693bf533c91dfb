import { SignJWT, type JWTPayload } from 'jose';
import { createTokenVerifier, TokenRejected } from '../../shared/auth/jwt';
import { VerifiedTokenCache } from '../../shared/auth/verifiedTokenCache';

const settings = {
  AUTH_JWT_SECRET: 'a-local-secret-long-enough-for-hs256-signing',
  AUTH_JWKS_URL: undefined,
  AUTH_ISSUER: 'https://issuer.example.test',
  AUTH_AUDIENCE: 'api://shooting-club',
};
const START = Date.parse('2026-11-26T08:00:00Z');

function sign(claims: JWTPayload, expiresAt: number): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer(settings.AUTH_ISSUER)
    .setAudience(settings.AUTH_AUDIENCE)
    .setIssuedAt(Math.floor(START / 1000))
    .setExpirationTime(Math.floor(expiresAt / 1000))
    .sign(new TextEncoder().encode(settings.AUTH_JWT_SECRET));
}

describe('a verified token remembered until its expiry', () => {
  beforeEach(() => {
    // Only the clock is faked; jose's crypto and promises run as usual.
    jest.useFakeTimers({ now: START, doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask', 'setTimeout', 'setInterval'] });
  });
  afterEach(() => jest.useRealTimers());

  it('answers the same user on every call while the token is valid', async () => {
    const verify = createTokenVerifier(settings);
    const token = await sign({ sub: 'user-1', roles: ['platform_admin', 'other-app-role'] }, START + 600_000);
    const first = await verify(token);
    first.roles.push('club_admin' as never);
    await expect(verify(token)).resolves.toMatchObject({ userId: 'user-1', roles: ['platform_admin'] });
  });

  it('keeps one sign-in per token: once recorded, every later call with the token knows it', async () => {
    const verify = createTokenVerifier(settings);
    const token = await sign({ sub: 'user-1', name: 'Anna Schütz' }, START + 600_000);
    const first = await verify(token);
    expect(first.signIn).toEqual({ name: 'Anna Schütz', recorded: false });
    if (first.signIn) first.signIn.recorded = true;
    expect((await verify(token)).signIn).toEqual({ name: 'Anna Schütz', recorded: true });
    // Another token of the same person is another sign-in.
    const again = await sign({ sub: 'user-1', name: 'Anna Schütz', roles: ['ops_admin'] }, START + 600_000);
    expect((await verify(again)).signIn).toEqual({ name: 'Anna Schütz', recorded: false });
  });

  it('refuses the token once it has expired although it was verified before', async () => {
    const verify = createTokenVerifier(settings);
    const token = await sign({ sub: 'user-1' }, START + 60_000);
    await expect(verify(token)).resolves.toMatchObject({ userId: 'user-1', roles: [] });
    // Past exp and past the 30 s clock tolerance jose allows.
    jest.setSystemTime(START + 60_000 + 31_000);
    await expect(verify(token)).rejects.toThrow(new TokenRejected('The token has expired.'));
  });

  it('does not accept a token with a changed signature because the genuine one was verified', async () => {
    const verify = createTokenVerifier(settings);
    const token = await sign({ sub: 'user-1' }, START + 600_000);
    await verify(token);
    const last = token.at(-1) === 'A' ? 'B' : 'A';
    await expect(verify(token.slice(0, -1) + last)).rejects.toThrow(TokenRejected);
  });

  it('keeps a refused token refused on every call', async () => {
    const verify = createTokenVerifier(settings);
    const forged = await new SignJWT({ sub: 'user-1' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(settings.AUTH_ISSUER)
      .setAudience(settings.AUTH_AUDIENCE)
      .setExpirationTime(Math.floor(START / 1000) + 600)
      .sign(new TextEncoder().encode('another-secret-long-enough-for-hs256-signing'));
    await expect(verify(forged)).rejects.toThrow(new TokenRejected('The token signature is invalid.'));
    await expect(verify(forged)).rejects.toThrow(new TokenRejected('The token signature is invalid.'));
  });
});

/** A cache of capacity 2 holding token-a, then token-b, both valid for a minute. */
function fullCacheOfTwo(): { cache: VerifiedTokenCache<string>; later: number } {
  const cache = new VerifiedTokenCache<string>(2);
  const later = Date.now() + 60_000;
  cache.set('token-a', 'a', later);
  cache.set('token-b', 'b', later);
  return { cache, later };
}

describe('the verified token cache', () => {
  afterEach(() => jest.useRealTimers());

  it('holds at most its capacity, dropping the least recently used first', () => {
    const { cache, later } = fullCacheOfTwo();
    expect(cache.get('token-a')).toBe('a');
    cache.set('token-c', 'c', later);
    expect(cache.size).toBe(2);
    expect(cache.get('token-b')).toBeUndefined();
    expect(cache.get('token-a')).toBe('a');
    expect(cache.get('token-c')).toBe('c');
  });

  it('keeps the recency order through runs of calls with one token and switches between tokens', () => {
    const { cache, later } = fullCacheOfTwo();
    expect(cache.get('token-b')).toBe('b');
    expect(cache.get('token-b')).toBe('b');
    expect(cache.get('token-a')).toBe('a');
    expect(cache.get('token-a')).toBe('a');
    // b is now the least recently used.
    cache.set('token-c', 'c', later);
    expect(cache.get('token-b')).toBeUndefined();
    expect(cache.get('token-a')).toBe('a');
    expect(cache.get('token-c')).toBe('c');
    // a is now the least recently used.
    cache.set('token-d', 'd', later);
    expect(cache.get('token-a')).toBeUndefined();
    expect([cache.get('token-c'), cache.get('token-d')]).toEqual(['c', 'd']);
  });

  it('forgets an entry at its expiry and never stores one already expired', () => {
    jest.useFakeTimers({ now: START });
    const cache = new VerifiedTokenCache<string>(10);
    cache.set('token-a', 'a', START + 1_000);
    cache.set('token-old', 'old', START);
    expect(cache.size).toBe(1);
    jest.setSystemTime(START + 999);
    expect(cache.get('token-a')).toBe('a');
    jest.setSystemTime(START + 1_000);
    expect(cache.get('token-a')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('stores nothing with a capacity of zero', () => {
    const cache = new VerifiedTokenCache<string>(0);
    cache.set('token-a', 'a', Date.now() + 60_000);
    expect(cache.get('token-a')).toBeUndefined();
    expect(cache.size).toBe(0);
  });
});
