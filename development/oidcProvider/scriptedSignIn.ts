import * as oauth from 'oauth4webapi';
import { DEMO_PASSWORD } from './demoUsers';

export interface ScriptedTokens {
  accessToken: string;
  refreshToken?: string;
  expiresIn?: number;
}

/**
 * Signs a demo user in through the local provider's own login page, as a browser would but
 * without one: authorization request with PKCE, the login form, the redirect back with the code,
 * the code exchange. For `npm run token -- --user` and for tests that need a real token quickly.
 */
export async function scriptedSignIn(options: {
  issuer: string;
  clientId: string;
  redirectUri: string;
  username: string;
  password?: string;
  scope?: string;
}): Promise<ScriptedTokens> {
  const issuer = new URL(options.issuer);
  const insecure = { [oauth.allowInsecureRequests]: issuer.protocol === 'http:' };
  const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, insecure));
  const client: oauth.Client = { client_id: options.clientId };
  const codeVerifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const authorize = new URL(as.authorization_endpoint ?? '');
  authorize.search = new URLSearchParams({
    client_id: options.clientId,
    redirect_uri: options.redirectUri,
    response_type: 'code',
    scope: options.scope ?? 'openid profile offline_access api',
    state,
    code_challenge: await oauth.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
  }).toString();

  const cookies = new Map<string, string>();
  const request = async (url: URL, init: RequestInit = {}): Promise<Response> => {
    const headers = new Headers(init.headers);
    if (cookies.size) headers.set('cookie', [...cookies].map(([name, value]) => `${name}=${value}`).join('; '));
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const separator = pair.indexOf('=');
      const name = pair.slice(0, separator).trim();
      const value = pair.slice(separator + 1).trim();
      if (value) cookies.set(name, value);
      else cookies.delete(name);
    }
    return response;
  };
  /** Follows the provider's redirects until one leaves it (the callback) or a page is shown. */
  const follow = async (response: Response): Promise<{ response: Response; callback?: URL }> => {
    for (let hops = 0; hops < 10; hops++) {
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || !location) return { response };
      const next = new URL(location, issuer);
      if (next.href.startsWith(options.redirectUri)) return { response, callback: next };
      response = await request(next);
    }
    throw new Error('too many redirects at the provider');
  };

  const loginPage = await follow(await request(authorize));
  if (loginPage.callback) throw new Error(`the provider answered without a login: ${loginPage.callback.search}`);
  const action = /<form method="post" action="([^"]+\/login)"/.exec(await loginPage.response.text())?.[1];
  if (!action) throw new Error(`no login form at the provider (HTTP ${loginPage.response.status})`);
  const submitted = await follow(
    await request(new URL(action, issuer), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: options.username, password: options.password ?? DEMO_PASSWORD }).toString(),
    }),
  );
  if (!submitted.callback) throw new Error(`the provider refused the sign-in of ${options.username} (HTTP ${submitted.response.status})`);
  const parameters = oauth.validateAuthResponse(as, client, submitted.callback, state);
  const exchange = await oauth.authorizationCodeGrantRequest(
    as,
    client,
    oauth.None(),
    parameters,
    options.redirectUri,
    codeVerifier,
    insecure,
  );
  const tokens = await oauth.processAuthorizationCodeResponse(as, client, exchange);
  return { accessToken: tokens.access_token, refreshToken: tokens.refresh_token, expiresIn: tokens.expires_in };
}
