import { parseSignInConfig, SignInError } from '../../../web/signin/config';

describe('browser sign-in: reading GET /api/auth/config', () => {
  it('reads a configured provider with both clients', () => {
    const config = parseSignInConfig({
      signIn: { authority: 'https://login.example/tenant/v2.0', clientIds: { portal: 'p-id', app: 'a-id' }, scope: 'openid api' },
      developerTokenPaste: false,
    });
    expect(config).toEqual({
      signIn: { authority: 'https://login.example/tenant/v2.0', clientIds: { portal: 'p-id', app: 'a-id' }, scope: 'openid api' },
      developerTokenPaste: false,
    });
  });

  it('reads a client without an id as null: that front end cannot sign in', () => {
    const config = parseSignInConfig({
      signIn: { authority: 'https://login.example', clientIds: { portal: 'p-id', app: null }, scope: 'openid' },
      developerTokenPaste: true,
    });
    expect(config.signIn?.clientIds).toEqual({ portal: 'p-id', app: null });
  });

  it('reads "not configured"', () => {
    expect(parseSignInConfig({ signIn: null, developerTokenPaste: true })).toEqual({ signIn: null, developerTokenPaste: true });
  });

  it.each([
    ['nothing', undefined],
    ['a string', 'config'],
    ['no paste flag', { signIn: null }],
    ['signIn missing', { developerTokenPaste: true }],
    ['no authority', { signIn: { clientIds: {}, scope: 'openid' }, developerTokenPaste: false }],
    ['clientIds not an object', { signIn: { authority: 'https://x', clientIds: 'p', scope: 'openid' }, developerTokenPaste: false }],
  ])('refuses %s with config-unavailable', (_name, value) => {
    expect(() => parseSignInConfig(value)).toThrow(SignInError);
    try {
      parseSignInConfig(value);
    } catch (error) {
      expect((error as SignInError).code).toBe('config-unavailable');
    }
  });
});
