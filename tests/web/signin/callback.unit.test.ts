import {
  callbackParameters,
  expired,
  parseStored,
  redirectUriOf,
  refreshDue,
  safeReturnTo,
  unverifiedClaims,
  type PendingSignIn,
} from '../../../web/signin/callback';

describe('browser sign-in: callback, return address and token timing', () => {
  it('recognises a callback by its code, state or error, and nothing else', () => {
    expect(callbackParameters(new URL('http://h/portal/?code=c&state=s'))?.get('code')).toBe('c');
    expect(callbackParameters(new URL('http://h/portal/?state=s'))?.get('state')).toBe('s');
    expect(callbackParameters(new URL('http://h/portal/?error=access_denied&state=s'))?.get('error')).toBe('access_denied');
    expect(callbackParameters(new URL('http://h/portal/'))).toBeUndefined();
    expect(callbackParameters(new URL('http://h/portal/#/costs?code=in-the-fragment'))).toBeUndefined();
  });

  it('returns only to a path below the front end, never to another site', () => {
    expect(safeReturnTo('/portal/#/costs', '/portal/')).toBe('/portal/#/costs');
    expect(safeReturnTo('/app/challenges?tab=club', '/app/')).toBe('/app/challenges?tab=club');
    expect(safeReturnTo(undefined, '/portal/')).toBe('/portal/');
    expect(safeReturnTo('https://evil.example/portal/', '/portal/')).toBe('/portal/');
    expect(safeReturnTo('//evil.example/portal/', '/portal/')).toBe('/portal/');
    expect(safeReturnTo('/app/', '/portal/')).toBe('/portal/');
    expect(safeReturnTo('/portal/\\evil', '/portal/')).toBe('/portal/');
  });

  it('redirects back to the front end’s own base path on this origin', () => {
    expect(redirectUriOf('http://127.0.0.1:7071', '/portal/')).toBe('http://127.0.0.1:7071/portal/');
  });

  it('refreshes when a third of the lifetime is left, at most a minute early', () => {
    const now = 1_000_000;
    // 8 s tokens: due with 2.67 s left.
    expect(refreshDue({ expiresAt: now + 3_000, lifetime: 8_000 }, now)).toBe(false);
    expect(refreshDue({ expiresAt: now + 2_000, lifetime: 8_000 }, now)).toBe(true);
    // One-hour tokens (Entra ID): due in the last minute only.
    expect(refreshDue({ expiresAt: now + 61_000, lifetime: 3_600_000 }, now)).toBe(false);
    expect(refreshDue({ expiresAt: now + 59_000, lifetime: 3_600_000 }, now)).toBe(true);
    expect(refreshDue({}, now)).toBe(false);
    expect(expired({ expiresAt: now }, now)).toBe(true);
    expect(expired({ expiresAt: now + 1 }, now)).toBe(false);
    expect(expired({}, now)).toBe(false);
  });

  it('reads who a pasted token is for, and nothing from what is no JWT', () => {
    const payload = Buffer.from(JSON.stringify({ sub: 'admin-1', name: 'Ada', exp: 1_800_000_000 })).toString('base64url');
    expect(unverifiedClaims(`eyJhbGciOiJIUzI1NiJ9.${payload}.sig`)).toEqual({ sub: 'admin-1', name: 'Ada', exp: 1_800_000_000 });
    expect(unverifiedClaims('not-a-jwt')).toBeUndefined();
    expect(unverifiedClaims('a.%%%.c')).toBeUndefined();
    const numbers = Buffer.from(JSON.stringify({ sub: 7, exp: 'soon' })).toString('base64url');
    expect(unverifiedClaims(`a.${numbers}.c`)).toEqual({ sub: undefined, name: undefined, exp: undefined });
  });

  it('reads back only what it stored', () => {
    const pending: PendingSignIn = { state: 's', codeVerifier: 'v', nonce: 'n', returnTo: '/portal/' };
    const required = ['state', 'codeVerifier', 'nonce', 'returnTo'] as const;
    expect(parseStored<PendingSignIn>(JSON.stringify(pending), required)).toEqual(pending);
    expect(parseStored<PendingSignIn>(JSON.stringify({ ...pending, state: 1 }), required)).toBeUndefined();
    expect(parseStored<PendingSignIn>('{broken', required)).toBeUndefined();
    expect(parseStored<PendingSignIn>('null', required)).toBeUndefined();
    expect(parseStored<PendingSignIn>(null, required)).toBeUndefined();
  });
});
