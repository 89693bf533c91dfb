import { signInConfigOf } from '../../shared/auth/signInConfig';
import { parseSettings, SettingsError } from '../../shared/config/settings';

const BASE = { AUTH_JWT_SECRET: 'x'.repeat(32), AUTH_ISSUER: 'local-dev', AUTH_AUDIENCE: 'shooting-club-api' };

describe('sign-in configuration (GET /api/auth/config)', () => {
  it('says "not configured" and offers the token paste when no authority is set', () => {
    expect(signInConfigOf(parseSettings(BASE))).toEqual({ signIn: null, developerTokenPaste: true });
  });

  it('gives the authority exactly as configured, both client ids, the scopes, and no paste by default', () => {
    const settings = parseSettings({
      ...BASE,
      AUTH_OIDC_AUTHORITY: 'https://login.microsoftonline.com/11111111-2222-3333-4444-555555555555/v2.0',
      AUTH_PORTAL_CLIENT_ID: 'portal-client',
      AUTH_APP_CLIENT_ID: 'app-client',
      AUTH_OIDC_SCOPE: 'openid profile offline_access api://shooting-club/access_as_user',
    });
    expect(signInConfigOf(settings)).toEqual({
      signIn: {
        authority: 'https://login.microsoftonline.com/11111111-2222-3333-4444-555555555555/v2.0',
        clientIds: { portal: 'portal-client', app: 'app-client' },
        scope: 'openid profile offline_access api://shooting-club/access_as_user',
      },
      developerTokenPaste: false,
    });
  });

  it('names a client without an id as null and defaults the scopes', () => {
    const settings = parseSettings({
      ...BASE,
      AUTH_OIDC_AUTHORITY: 'http://127.0.0.1:7300',
      AUTH_PORTAL_CLIENT_ID: 'portal',
      AUTH_TOKEN_PASTE: 'true',
    });
    expect(signInConfigOf(settings)).toEqual({
      signIn: { authority: 'http://127.0.0.1:7300', clientIds: { portal: 'portal', app: null }, scope: 'openid profile offline_access' },
      developerTokenPaste: true,
    });
  });

  it('refuses an authority without any client id, and an authority that is no URL', () => {
    expect(() => parseSettings({ ...BASE, AUTH_OIDC_AUTHORITY: 'https://login.example' })).toThrow(
      new SettingsError([
        { setting: 'AUTH_PORTAL_CLIENT_ID', message: 'or AUTH_APP_CLIENT_ID is required when AUTH_OIDC_AUTHORITY is set' },
      ]),
    );
    expect(() => parseSettings({ ...BASE, AUTH_OIDC_AUTHORITY: 'login.example', AUTH_PORTAL_CLIENT_ID: 'p' })).toThrow(
      /AUTH_OIDC_AUTHORITY must be a URL/,
    );
    expect(() => parseSettings({ ...BASE, AUTH_TOKEN_PASTE: 'yes' })).toThrow(/AUTH_TOKEN_PASTE must be true or false/);
  });
});
