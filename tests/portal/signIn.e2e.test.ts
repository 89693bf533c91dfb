import type { Page } from 'playwright-core';
import type { FakeCostProvider } from '../../development/costsFake/server';
import { freePort } from '../../development/local/net';
import { overrideSettings, withSettings } from '../../shared/config/settings';
import { clockAt, serviceFor, startFake } from '../costs/support';
import { providerSignInSettings, providerToken, startProviderProcess, type ProviderProcess } from '../support/oidcProvider';
import { navLink, screenshot, startPortalRig, type PortalRig } from './browser';

const AUDIENCE = 'shooting-club-api';
/** Short enough that a test sees a refresh and an expiry; the refresh margin is a third of it. */
const ACCESS_TOKEN_SECONDS = 8;

interface StoredTokens {
  accessToken: string;
  refreshToken?: string;
  expiresAt: number;
}

/**
 * Signing in to the portal through the local OpenID provider, as `npm start` runs it: the real
 * login page, authorization code with PKCE, refresh, expiry and sign-out; and what goes wrong.
 */
/**
 * Waits for a moment of the page's clock (the same machine's): a timer here, where polling the page
 * for it would run a frame callback sixty times a second for the whole wait.
 */
function sleepUntil(epochMs: number): Promise<void> {
  expect(epochMs - Date.now()).toBeLessThan(15_000);
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, epochMs - Date.now())));
}

describe('portal sign-in with the local OpenID provider', () => {
  let fake: FakeCostProvider;
  let rig: PortalRig;
  let provider: ProviderProcess;
  let restoreSettings: () => void;

  beforeAll(async () => {
    fake = await startFake();
    const service = serviceFor(fake, clockAt('2026-11-21T10:00:00Z').now);
    rig = await startPortalRig({ costService: () => service });
    provider = await startProviderProcess({ origins: [rig.host.url], audience: AUDIENCE, accessTokenTtlSeconds: ACCESS_TOKEN_SECONDS });
    restoreSettings = overrideSettings(providerSignInSettings(provider, AUDIENCE));
  }, 90_000);
  afterAll(async () => {
    restoreSettings?.();
    await rig?.close();
    await provider?.stop();
    await fake?.close();
  });
  // Every test starts without a provider session (its cookies live in the shared browser profile).
  beforeEach(() => rig.browser.clearCookies());

  const portal = (path = '') => `${rig.host.url}/portal/${path}`;
  const signInButton = (page: Page) => page.getByRole('button', { name: 'Sign in', exact: true });
  const storedTokens = (page: Page) =>
    page.evaluate<StoredTokens | null>(`JSON.parse(sessionStorage.getItem('signin.portal.tokens') ?? 'null')`);

  /** The provider's login page, filled in as a person would. */
  async function logInAtProvider(page: Page, username: string, password = 'demo'): Promise<void> {
    await page.getByLabel('Username').waitFor();
    expect(new URL(page.url()).origin).toBe(provider.issuer);
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }

  async function signedInPage(username: string, path: string): Promise<Page> {
    const page = await rig.newPage();
    await page.goto(portal(path));
    await signInButton(page).click();
    await logInAtProvider(page, username);
    await page.getByRole('navigation', { name: 'Main navigation' }).waitFor();
    return page;
  }

  it('signs in through the login page and returns to the page asked for, with the demo admin’s pages', async () => {
    const page = await rig.newPage();
    await page.goto(portal('#/diagnostics'));
    await signInButton(page).waitFor();
    // The provider is configured and the paste is not offered: no token field at all.
    expect(await page.getByLabel('Bearer token').count()).toBe(0);
    await screenshot(page, 'signin-provider-button');
    await signInButton(page).click();
    await page.getByLabel('Username').waitFor();
    await screenshot(page, 'signin-local-provider-login');
    await logInAtProvider(page, 'demo-admin');

    await page.getByRole('heading', { level: 1, name: 'Diagnostics' }).waitFor();
    // Neither the code nor the state stays in the address bar.
    expect(page.url()).toBe(portal('#/diagnostics'));
    const links = page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link');
    expect(await links.allInnerTexts()).toEqual(['Overview', 'Costs', 'Diagnostics']);
    expect(await page.getByTestId('who').innerText()).toBe('Demo Admin');
    const tokens = await storedTokens(page);
    expect(tokens?.accessToken).toMatch(/^ey/);
    expect(tokens?.refreshToken).toBeTruthy();
    // Tokens in this tab's sessionStorage only.
    const local = await page.evaluate<string>('JSON.stringify({ ...localStorage })');
    expect(local).not.toContain(tokens?.accessToken ?? 'none');
    expect(local).not.toContain(tokens?.refreshToken ?? 'none');
    await screenshot(page, 'signin-signed-in-admin');
    await page.close();
  });

  it('shows the ops user only the pages of ops_admin', async () => {
    const page = await signedInPage('demo-ops', '');
    await navLink(page, 'Costs').waitFor();
    expect(await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link').allInnerTexts()).toEqual([
      'Overview',
      'Costs',
    ]);
    await page.close();
  });

  it('refreshes the access token before it expires, with a rotated refresh token, and stays signed in', async () => {
    const page = await signedInPage('demo-admin', '');
    const first = await storedTokens(page);
    if (!first) throw new Error('no tokens after signing in');
    const refreshes: string[] = [];
    page.on('request', (request) => {
      if (request.url() === `${provider.issuer}/token` && request.postData()?.includes('grant_type=refresh_token'))
        refreshes.push(request.url());
    });
    // Past the point where a refresh is due (a third of the lifetime left), still before expiry.
    await sleepUntil(first.expiresAt - 2_000);
    await navLink(page, 'Costs').click();
    await page.getByTestId('tile-mtd').waitFor();
    const second = await storedTokens(page);
    expect(refreshes).toHaveLength(1);
    expect(second?.accessToken).not.toBe(first.accessToken);
    expect(second?.refreshToken).not.toBe(first.refreshToken);
    // The old refresh token was rotated away: the provider refuses it.
    expect(await refreshWith(first.refreshToken)).toBe(400);
    await page.close();
  });

  it('answers a 401 of the API with one refresh and a retry', async () => {
    const page = await signedInPage('demo-admin', '');
    const before = await storedTokens(page);
    // A token the API refuses although this tab believes it valid (e.g. its signing key rotated).
    await page.evaluate(`(() => {
      const stored = JSON.parse(sessionStorage.getItem('signin.portal.tokens'));
      sessionStorage.setItem('signin.portal.tokens', JSON.stringify({ ...stored, accessToken: 'eyJhbGciOiJSUzI1NiJ9.e30.AAAA' }));
    })()`);
    await navLink(page, 'Costs').click();
    await page.getByTestId('tile-mtd').waitFor();
    const after = await storedTokens(page);
    expect(after?.accessToken).toMatch(/^ey/);
    expect(after?.accessToken).not.toBe(before?.accessToken);
    await page.close();
  });

  it('ends the session as expired when the refresh token is revoked, and signing in again returns to the page', async () => {
    const page = await signedInPage('demo-admin', '#/costs');
    const tokens = await storedTokens(page);
    if (!tokens?.refreshToken) throw new Error('no refresh token after signing in');
    const revoked = await fetch(`${provider.issuer}/token/revocation`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: tokens.refreshToken, client_id: 'portal' }).toString(),
    });
    expect(revoked.status).toBe(200);
    await sleepUntil(tokens.expiresAt + 1);

    await navLink(page, 'Diagnostics').click();
    await page.getByText('Your session ended; sign in again.').waitFor();
    expect(await storedTokens(page)).toBeNull();
    await screenshot(page, 'signin-session-expired');
    await signInButton(page).click();
    // The provider's own session is still there: it answers without asking again.
    await page.getByRole('heading', { level: 1, name: 'Diagnostics' }).waitFor();
    expect(page.url()).toBe(portal('#/diagnostics'));
    await page.close();
  });

  it('signs out at the provider too: the refresh token is dead and the next sign-in asks again', async () => {
    const page = await signedInPage('demo-admin', '');
    const tokens = await storedTokens(page);
    await page.getByTestId('sign-out').click();
    await page.getByRole('heading', { name: 'Sign out of the local provider?' }).waitFor();
    await screenshot(page, 'signin-local-provider-logout');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByText('You have signed out.').waitFor();
    expect(page.url()).toBe(portal());
    expect(await storedTokens(page)).toBeNull();
    expect(await refreshWith(tokens?.refreshToken)).toBe(400);
    await signInButton(page).click();
    await page.getByLabel('Username').waitFor();
    await page.close();
  });

  it('lets the user cancel at the provider and says so', async () => {
    const page = await rig.newPage();
    await page.goto(portal('#/costs'));
    await signInButton(page).click();
    await page.getByLabel('Username').waitFor();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByTestId('signin-error').waitFor();
    expect(await page.getByTestId('signin-error').innerText()).toContain('The sign-in service refused or the sign-in was cancelled.');
    expect(await page.getByTestId('signin-error').innerText()).toContain('access_denied');
    expect(page.url()).toBe(portal('#/costs'));
    await signInButton(page).waitFor();
    await page.close();
  });

  it('refuses an answer whose state this tab did not send, and one without a code', async () => {
    const page = await rig.newPage();
    const states: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.origin === provider.issuer && url.pathname === '/auth') states.push(url.searchParams.get('state') ?? '');
    });
    await page.goto(portal());
    await signInButton(page).click();
    await page.getByLabel('Username').waitFor();
    await page.goto(portal('?code=forged-code&state=forged-state'));
    await page.getByTestId('signin-error').waitFor();
    expect(await page.getByTestId('signin-error').innerText()).toContain('does not belong to this tab');
    expect(page.url()).toBe(portal());
    expect(await storedTokens(page)).toBeNull();
    await screenshot(page, 'signin-state-mismatch');

    await signInButton(page).click();
    await page.getByLabel('Username').waitFor();
    const state = states.at(-1) ?? '';
    expect(state).not.toBe('');
    await page.goto(portal(`?state=${encodeURIComponent(state)}`));
    await page.getByTestId('signin-error').waitFor();
    expect(await page.getByTestId('signin-error').innerText()).toContain('The answer of the sign-in service was incomplete.');
    expect(page.url()).toBe(portal());
    await page.close();
  });

  it('says the sign-in service cannot be reached when the provider is down', async () => {
    const dead = `http://127.0.0.1:${await freePort()}`;
    await withSettings({ AUTH_OIDC_AUTHORITY: dead }, async () => {
      const page = await rig.newPage();
      await page.goto(portal());
      await signInButton(page).click();
      await page.getByTestId('signin-error').waitFor();
      expect(await page.getByTestId('signin-error').innerText()).toContain('The sign-in service cannot be reached.');
      expect(page.url()).toBe(portal());
      await screenshot(page, 'signin-provider-down');
      await page.close();
    });
  });

  it('signs in with the keyboard alone', async () => {
    const page = await rig.newPage();
    await page.goto(portal());
    await signInButton(page).waitFor();
    let reached = false;
    for (let presses = 0; presses < 10 && !reached; presses++) {
      await page.keyboard.press('Tab');
      reached = await page.evaluate<boolean>(`document.activeElement?.textContent === 'Sign in'`);
    }
    expect(reached).toBe(true);
    await page.keyboard.press('Enter');
    // The login page puts the focus on the username.
    await page.getByLabel('Username').waitFor();
    expect(await page.evaluate<string>('document.activeElement?.id')).toBe('username');
    await page.keyboard.type('demo-admin');
    await page.keyboard.press('Tab');
    await page.keyboard.type('demo');
    await page.keyboard.press('Enter');
    await navLink(page, 'Diagnostics').waitFor();
    await page.close();
  });

  it('works at phone width in German', async () => {
    const page = await rig.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(portal());
    await page.getByLabel('Language').selectOption('de');
    const anmelden = page.getByRole('button', { name: 'Anmelden', exact: true });
    await anmelden.waitFor();
    expect(await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth')).toBe(0);
    await screenshot(page, 'signin-phone-de');
    await anmelden.click();
    await page.getByLabel('Username').waitFor();
    expect(await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth')).toBe(0);
    await screenshot(page, 'signin-local-provider-phone');
    await logInAtProvider(page, 'demo-admin');
    await page.getByRole('navigation', { name: 'Hauptnavigation' }).getByRole('link', { name: 'Kosten' }).waitFor();
    await page.getByLabel('Sprache').selectOption('en');
    await page.close();
  });

  it('offers the token paste beside the provider only when configured to, collapsed', async () => {
    const token = await providerToken(provider, rig.host.url, 'demo-ops');
    await withSettings({ AUTH_TOKEN_PASTE: 'true' }, async () => {
      const page = await rig.newPage();
      await page.goto(portal());
      await signInButton(page).waitFor();
      const fallback = page.getByText('Developer: paste a token');
      await fallback.waitFor();
      expect(await page.getByLabel('Bearer token').isVisible()).toBe(false);
      await fallback.click();
      await page.getByLabel('Bearer token').fill(token);
      await screenshot(page, 'signin-developer-paste');
      await page.getByRole('button', { name: 'Use token' }).click();
      await navLink(page, 'Costs').waitFor();
      // The pasted token carries the provider's name claim, shown instead of the id.
      expect(await page.getByTestId('who').innerText()).toBe('Demo Ops');
      await page.close();
    });
  }, 60_000);

  it('offers only the token paste when sign-in is not configured', async () => {
    await withSettings({ AUTH_OIDC_AUTHORITY: undefined }, async () => {
      const config: unknown = await (await rig.host.request('GET', '/api/auth/config')).json();
      expect(config).toEqual({ signIn: null, developerTokenPaste: true });
      const page = await rig.newPage();
      await page.goto(portal());
      await page.getByText('Sign-in is not configured for this service: only pasting a token is offered.').waitFor();
      expect(await page.getByLabel('Bearer token').isVisible()).toBe(true);
      expect(await page.getByRole('button', { name: 'Sign in' }).count()).toBe(1);
      expect(await page.getByText('Developer: paste a token').count()).toBe(0);
      await page.close();
    });
  });

  describe('the API and the provider’s tokens', () => {
    const me = (token: string) => rig.host.request('GET', '/api/me', { headers: { authorization: `Bearer ${token}` } });

    it('accepts the provider’s token for the demo admin', async () => {
      const response = await me(await providerToken(provider, rig.host.url, 'demo-admin'));
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ sub: 'demo-admin', roles: ['platform_admin'] });
    }, 60_000);

    it('refuses a token of this provider for another audience', async () => {
      const token = await providerToken(provider, rig.host.url, 'demo-admin');
      const response = await withSettings({ AUTH_AUDIENCE: 'another-api' }, () => me(token));
      expect(response.status).toBe(401);
      expect(response.headers.get('content-type')).toContain('application/problem+json');
      expect(((await response.json()) as { detail: string }).detail).toBe("The token's aud claim is not accepted.");
    }, 60_000);

    it('refuses a token of another provider', async () => {
      const other = await startProviderProcess({ origins: [rig.host.url], audience: AUDIENCE });
      try {
        const response = await me(await providerToken(other, rig.host.url, 'demo-admin'));
        expect(response.status).toBe(401);
        expect(((await response.json()) as { detail: string }).detail).toBe('The token was signed by an unknown key.');
      } finally {
        await other.stop();
      }
    }, 90_000);
  });

  /** The provider's answer to a refresh with this token: 200, or 400 when it is no longer valid. */
  async function refreshWith(refreshToken: string | undefined): Promise<number> {
    const response = await fetch(`${provider.issuer}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken ?? '', client_id: 'portal' }).toString(),
    });
    return response.status;
  }
});
