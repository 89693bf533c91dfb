import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { createTokenVerifier, TokenRejected } from '../../shared/auth/jwt';
import { providerToken, startProviderProcess, type ProviderProcess } from '../support/oidcProvider';

const root = path.resolve(__dirname, '..', '..');
const ORIGIN = 'http://127.0.0.1:7999';
const AUDIENCE = 'shooting-club-api';

/** The local OpenID provider npm start runs: what its tokens say, and what it refuses. */
describe('local OpenID provider', () => {
  let provider: ProviderProcess;
  beforeAll(async () => {
    provider = await startProviderProcess({ origins: [ORIGIN], audience: AUDIENCE, accessTokenTtlSeconds: 120 });
  }, 60_000);
  afterAll(() => provider?.stop());

  const verifier = () =>
    createTokenVerifier({
      AUTH_JWKS_URL: provider.jwksUrl,
      AUTH_JWT_SECRET: undefined,
      AUTH_ISSUER: provider.issuer,
      AUTH_AUDIENCE: AUDIENCE,
    });
  const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as Record<string, unknown>;
  const headerOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString()) as Record<string, unknown>;

  it('publishes discovery with PKCE S256, revocation and end session; code flow only', async () => {
    const discovery = (await (await fetch(`${provider.issuer}/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
    expect(discovery['issuer']).toBe(provider.issuer);
    expect(discovery['jwks_uri']).toBe(provider.jwksUrl);
    expect(discovery['code_challenge_methods_supported']).toEqual(['S256']);
    expect(discovery['response_types_supported']).toEqual(['code']);
    expect(discovery['end_session_endpoint']).toBe(`${provider.issuer}/session/end`);
    expect(discovery['revocation_endpoint']).toBe(`${provider.issuer}/token/revocation`);
  });

  it('gives the demo admin an RS256 access token the API accepts, with its platform role', async () => {
    const token = await providerToken(provider, ORIGIN, 'demo-admin');
    expect(headerOf(token)).toMatchObject({ alg: 'RS256' });
    expect(claimsOf(token)).toMatchObject({
      iss: provider.issuer,
      aud: AUDIENCE,
      sub: 'demo-admin',
      roles: ['platform_admin'],
      client_id: 'portal',
    });
    const lifetime = (claimsOf(token)['exp'] as number) - (claimsOf(token)['iat'] as number);
    expect(lifetime).toBe(120);
    await expect(verifier()(token)).resolves.toEqual({
      userId: 'demo-admin',
      roles: ['platform_admin'],
      signIn: { name: 'Demo Admin', recorded: false },
    });
  }, 60_000);

  it('gives a member no platform role and the ops user ops_admin only, each with their name', async () => {
    await expect(verifier()(await providerToken(provider, ORIGIN, 'demo-member-1'))).resolves.toEqual({
      userId: 'demo-member-1',
      roles: [],
      signIn: { name: 'Demo Member 1', recorded: false },
    });
    await expect(verifier()(await providerToken(provider, ORIGIN, 'demo-ops'))).resolves.toEqual({
      userId: 'demo-ops',
      roles: ['ops_admin'],
      signIn: { name: 'Demo Ops', recorded: false },
    });
  }, 60_000);

  it('is refused by an API that expects another audience', async () => {
    const token = await providerToken(provider, ORIGIN, 'demo-admin');
    const other = createTokenVerifier({
      AUTH_JWKS_URL: provider.jwksUrl,
      AUTH_JWT_SECRET: undefined,
      AUTH_ISSUER: provider.issuer,
      AUTH_AUDIENCE: 'another-api',
    });
    await expect(other(token)).rejects.toThrow(new TokenRejected("The token's aud claim is not accepted."));
  }, 60_000);

  it('refuses an authorization request without PKCE and a redirect URI it does not know', async () => {
    const authorize = (params: Record<string, string>) =>
      fetch(
        `${provider.issuer}/auth?${new URLSearchParams({ client_id: 'portal', response_type: 'code', scope: 'openid', ...params }).toString()}`,
        {
          redirect: 'manual',
        },
      );
    const withoutPkce = await authorize({ redirect_uri: `${ORIGIN}/portal/`, state: 's' });
    const location = new URL(withoutPkce.headers.get('location') ?? '', provider.issuer);
    expect(location.searchParams.get('error')).toBe('invalid_request');
    expect(location.searchParams.get('error_description')).toMatch(/PKCE/);
    const foreign = await authorize({
      redirect_uri: 'https://evil.example/portal/',
      code_challenge: 'x'.repeat(43),
      code_challenge_method: 'S256',
    });
    expect(foreign.status).toBe(400);
    expect(await foreign.text()).toContain('redirect_uri did not match any of the client');
  });

  it('refuses a wrong password at its login page and keeps the username', async () => {
    const start = await fetch(
      `${provider.issuer}/auth?${new URLSearchParams({
        client_id: 'portal',
        response_type: 'code',
        scope: 'openid',
        redirect_uri: `${ORIGIN}/portal/`,
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
      }).toString()}`,
      { redirect: 'manual' },
    );
    const loginUrl = new URL(start.headers.get('location') ?? '', provider.issuer);
    const cookie = start.headers
      .getSetCookie()
      .map((line) => line.split(';')[0])
      .join('; ');
    const page = await fetch(loginUrl, { headers: { cookie } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<label for="password">Password</label>');
    const refused = await fetch(`${loginUrl.href}/login`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: 'demo-admin', password: 'wrong' }).toString(),
      redirect: 'manual',
    });
    expect(refused.status).toBe(401);
    const html = await refused.text();
    expect(html).toContain('Unknown username or wrong password.');
    expect(html).toContain('value="demo-admin"');
  });

  it('npm run token -- --user refuses a user who is not a demo user', async () => {
    await expect(runToken('--user', 'nobody', '--issuer', provider.issuer, '--origin', ORIGIN)).rejects.toThrow(/Unknown demo user nobody/);
  }, 60_000);
});

const runToken = (...args: string[]) =>
  promisify(execFile)(process.execPath, [require.resolve('tsx/cli'), 'development/token.ts', ...args], { cwd: root });
