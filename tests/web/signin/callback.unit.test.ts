import * as signIn from '../../../web/signin/callback';

describe('browser sign-in: callback, return address and token timing', () => {
  it('recognises a callback by its code, state or error, and nothing else', () => {
    expect(signIn.callbackParameters(new URL('http://h/portal/?code=c&state=s'))?.get('code')).toBe('c');
    expect(signIn.callbackParameters(new URL('http://h/portal/?state=s'))?.get('state')).toBe('s');
    expect(signIn.callbackParameters(new URL('http://h/portal/?error=access_denied&state=s'))?.get('error')).toBe('access_denied');
    expect(signIn.callbackParameters(new URL('http://h/portal/'))).toBeUndefined();
    expect(signIn.callbackParameters(new URL('http://h/portal/#/costs?code=in-the-fragment'))).toBeUndefined();
  });

  it('returns only to a path below the front end, never to another site', () => {
    expect(signIn.safeReturnTo('/portal/#/costs', '/portal/')).toBe('/portal/#/costs');
    expect(signIn.safeReturnTo('/app/challenges?tab=club', '/app/')).toBe('/app/challenges?tab=club');
    expect(signIn.safeReturnTo(undefined, '/portal/')).toBe('/portal/');
    expect(signIn.safeReturnTo('https://evil.example/portal/', '/portal/')).toBe('/portal/');
    expect(signIn.safeReturnTo('//evil.example/portal/', '/portal/')).toBe('/portal/');
    expect(signIn.safeReturnTo('/app/', '/portal/')).toBe('/portal/');
    expect(signIn.safeReturnTo('/portal/\\evil', '/portal/')).toBe('/portal/');
  });

  it('redirects back to the front end’s own base path on this origin', () => {
    expect(signIn.redirectUriOf('http://127.0.0.1:7071', '/portal/')).toBe('http://127.0.0.1:7071/portal/');
  });

  it('refreshes when a third of the lifetime is left, at most a minute early', () => {
    const now = 1_000_000;
    // 8 s tokens: due with 2.67 s left.
    expect(signIn.refreshDue({ expiresAt: now + 3_000, lifetime: 8_000 }, now)).toBe(false);
    expect(signIn.refreshDue({ expiresAt: now + 2_000, lifetime: 8_000 }, now)).toBe(true);
    // One-hour tokens (Entra ID): due in the last minute only.
    expect(signIn.refreshDue({ expiresAt: now + 61_000, lifetime: 3_600_000 }, now)).toBe(false);
    expect(signIn.refreshDue({ expiresAt: now + 59_000, lifetime: 3_600_000 }, now)).toBe(true);
    expect(signIn.refreshDue({}, now)).toBe(false);
    expect(signIn.expired({ expiresAt: now }, now)).toBe(true);
    expect(signIn.expired({ expiresAt: now + 1 }, now)).toBe(false);
    expect(signIn.expired({}, now)).toBe(false);
  });

  it('reads who a pasted token is for, and nothing from what is no JWT', () => {
    const payload = Buffer.from(JSON.stringify({ sub: 'admin-1', name: 'Ada', exp: 1_800_000_000 })).toString('base64url');
    expect(signIn.unverifiedClaims(`eyJhbGciOiJIUzI1NiJ9.${payload}.sig`)).toEqual({ sub: 'admin-1', name: 'Ada', exp: 1_800_000_000 });
    expect(signIn.unverifiedClaims('not-a-jwt')).toBeUndefined();
    expect(signIn.unverifiedClaims('a.%%%.c')).toBeUndefined();
    const numbers = Buffer.from(JSON.stringify({ sub: 7, exp: 'soon' })).toString('base64url');
    expect(signIn.unverifiedClaims(`a.${numbers}.c`)).toEqual({ sub: undefined, name: undefined, exp: undefined });
  });

  it('reads back only what it stored', () => {
    const pending: signIn.PendingSignIn = { state: 's', codeVerifier: 'v', nonce: 'n', returnTo: '/portal/' };
    const required = ['state', 'codeVerifier', 'nonce', 'returnTo'] as const;
    expect(signIn.parseStored<signIn.PendingSignIn>(JSON.stringify(pending), required)).toEqual(pending);
    expect(signIn.parseStored<signIn.PendingSignIn>(JSON.stringify({ ...pending, state: 1 }), required)).toBeUndefined();
    expect(signIn.parseStored<signIn.PendingSignIn>('{broken', required)).toBeUndefined();
    expect(signIn.parseStored<signIn.PendingSignIn>('null', required)).toBeUndefined();
    expect(signIn.parseStored<signIn.PendingSignIn>(null, required)).toBeUndefined();
  });
});
