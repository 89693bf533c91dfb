import type { TokenEndpointResponse } from 'oauth4webapi';
import {
  callbackParameters,
  expired,
  parseStored,
  redirectUriOf,
  refreshDue,
  safeReturnTo,
  unverifiedClaims,
  type PendingSignIn,
  type StoredTokens,
} from './callback';
import { parseSignInConfig, SignInError, type SignInConfig } from './config';
import { providerClient, type ProviderClient } from './provider';

export { SignInError, type SignInErrorCode } from './config';

export interface AuthUser {
  sub: string;
  name?: string;
}
export type SignedOutReason = 'signed-out' | 'expired';
export interface AuthSession {
  /** A valid access token (refreshed when near expiry), or undefined when signed out. */
  accessToken(): Promise<string | undefined>;
  user(): AuthUser | undefined;
  /** Starts the redirect to the provider; resolves only if navigation did not happen. */
  signIn(returnTo?: string): Promise<void>;
  signOut(): Promise<void>;
  /** Called once when the session ends: sign-out, or refresh failed / token expired. */
  onSignedOut(listener: (reason: SignedOutReason) => void): void;
  /** True when only the developer token-paste fallback is available (no provider configured). */
  readonly developerFallback: boolean;
  /** Developer fallback: use a pasted token (only when developerFallback is true). */
  usePastedToken(token: string): void;
}

/** What fetchWithSession needs beyond the public interface: a forced refresh and ending the session. */
interface SessionInternals {
  refreshNow(): Promise<boolean>;
  end(reason: SignedOutReason): void;
  pasteOffered: boolean;
}
const internals = new WeakMap<AuthSession, SessionInternals>();

/** How long signIn()/signOut() wait for the navigation they started before resolving. */
const NAVIGATION_GRACE_MS = 5_000;

/**
 * Reads GET /api/auth/config, completes a redirect callback (code/state in the URL), or restores the session.
 *
 * A failed callback (state mismatch, missing code, the provider refused or cannot be reached)
 * rejects with a SignInError after the callback parameters have been removed from the URL, so
 * calling startAuthSession again gives a signed-out session to show the error on.
 */
export async function startAuthSession(options: { client: 'portal' | 'app'; basePath: string; apiBase?: string }): Promise<AuthSession> {
  const { client, basePath } = options;
  const keys = { tokens: `signin.${client}.tokens`, pending: `signin.${client}.pending`, ended: `signin.${client}.ended` };
  const config = await loadConfig(options.apiBase ?? '');
  const clientId = config.signIn?.clientIds[client] ?? null;
  const provider: ProviderClient | undefined =
    config.signIn && clientId ? providerClient(config.signIn.authority, clientId, config.signIn.scope) : undefined;
  const pasteOffered = config.developerTokenPaste || !provider;
  const redirectUri = redirectUriOf(location.origin, basePath);

  let tokens = parseStored<StoredTokens>(sessionStorage.getItem(keys.tokens), ['accessToken', 'sub']);
  let ended = false;
  let refreshing: Promise<boolean> | undefined;
  const listeners: ((reason: SignedOutReason) => void)[] = [];
  // A sign-out that navigated to the provider's end-session page ended the session before this
  // page load: the first listener hears of it after the provider sends the user back.
  const endedBeforeLoad = sessionStorage.getItem(keys.ended) === 'signed-out' ? 'signed-out' : undefined;
  sessionStorage.removeItem(keys.ended);

  const keep = (next: StoredTokens) => {
    tokens = next;
    ended = false;
    sessionStorage.setItem(keys.tokens, JSON.stringify(next));
  };
  const end = (reason: SignedOutReason) => {
    tokens = undefined;
    sessionStorage.removeItem(keys.tokens);
    if (ended) return;
    ended = true;
    for (const listener of listeners) listener(reason);
  };
  const tokensFrom = (response: TokenEndpointResponse, previous: StoredTokens | undefined): StoredTokens => {
    const claims = provider?.idTokenClaims(response);
    const lifetime = response.expires_in === undefined ? undefined : response.expires_in * 1000;
    return {
      accessToken: response.access_token,
      expiresAt: lifetime === undefined ? undefined : Date.now() + lifetime,
      lifetime,
      // Rotation: the provider answers each refresh with a new refresh token; keep the old one only if it did not.
      refreshToken: response.refresh_token ?? previous?.refreshToken,
      idToken: response.id_token ?? previous?.idToken,
      sub: claims?.sub ?? previous?.sub ?? unverifiedClaims(response.access_token)?.sub ?? '',
      name: (typeof claims?.['name'] === 'string' ? claims['name'] : undefined) ?? previous?.name,
    };
  };
  const refreshNow = (): Promise<boolean> => {
    const current = tokens;
    if (!provider || !current?.refreshToken) return Promise.resolve(false);
    const refreshToken = current.refreshToken;
    refreshing ??= provider
      .refresh(refreshToken)
      .then((response) => {
        keep(tokensFrom(response, current));
        return true;
      })
      .catch(() => false)
      .finally(() => (refreshing = undefined));
    return refreshing;
  };

  const parameters = callbackParameters(new URL(location.href));
  if (parameters) {
    const callbackUrl = new URL(location.href);
    const pending = parseStored<PendingSignIn>(sessionStorage.getItem(keys.pending), ['state', 'codeVerifier', 'nonce', 'returnTo']);
    sessionStorage.removeItem(keys.pending);
    // The code and state never stay in the address bar or the history.
    history.replaceState(history.state, '', safeReturnTo(pending?.returnTo, basePath));
    if (!provider) throw new SignInError('not-configured', 'Sign-in is not configured for this application.');
    if (!pending) throw new SignInError('state-mismatch', 'This tab did not start the sign-in the answer belongs to.');
    keep(tokensFrom(await provider.exchangeCode(callbackUrl, redirectUri, pending), undefined));
  }

  const session: AuthSession = {
    developerFallback: !provider,
    async accessToken() {
      const current = tokens;
      if (!current) return undefined;
      if (!current.pasted && refreshDue(current, Date.now())) await refreshNow();
      if (tokens && expired(tokens, Date.now())) end('expired');
      return tokens?.accessToken;
    },
    user: () => (tokens ? { sub: tokens.sub, ...(tokens.name ? { name: tokens.name } : {}) } : undefined),
    async signIn(returnTo) {
      if (!provider) throw new SignInError('not-configured', 'Sign-in is not configured for this application.');
      const target = safeReturnTo(returnTo ?? `${location.pathname}${location.search}${location.hash}`, basePath);
      const { url, pending } = await provider.authorizationUrl(redirectUri, target);
      sessionStorage.setItem(keys.pending, JSON.stringify(pending));
      location.assign(url);
      await new Promise((resolve) => setTimeout(resolve, NAVIGATION_GRACE_MS));
    },
    async signOut() {
      const current = tokens;
      end('signed-out');
      if (!provider || !current || current.pasted) return;
      if (current.refreshToken) await provider.revoke(current.refreshToken);
      const url = await provider.endSessionUrl(current.idToken, redirectUri);
      if (!url) return;
      sessionStorage.setItem(keys.ended, 'signed-out');
      location.assign(url);
      await new Promise((resolve) => setTimeout(resolve, NAVIGATION_GRACE_MS));
    },
    onSignedOut(listener) {
      listeners.push(listener);
      if (endedBeforeLoad && listeners.length === 1 && !tokens) queueMicrotask(() => listener(endedBeforeLoad));
    },
    usePastedToken(token) {
      if (!pasteOffered) throw new SignInError('not-configured', 'Pasting a token is not offered here.');
      const claims = unverifiedClaims(token);
      keep({
        accessToken: token,
        expiresAt: claims?.exp === undefined ? undefined : claims.exp * 1000,
        sub: claims?.sub ?? '',
        ...(claims?.name ? { name: claims.name } : {}),
        pasted: true,
      });
    },
  };
  internals.set(session, { refreshNow, end, pasteOffered });
  return session;
}

/**
 * fetch() with the session's bearer token. A 401 refreshes the token once and retries; when that
 * is not possible or is refused again, the session ends as `expired` and the 401 is answered.
 */
export async function fetchWithSession(session: AuthSession, input: string, init: RequestInit = {}): Promise<Response> {
  const send = (token: string | undefined) => {
    const headers = new Headers(init.headers);
    if (token) headers.set('authorization', `Bearer ${token}`);
    return fetch(input, { ...init, headers });
  };
  const token = await session.accessToken();
  const response = await send(token);
  if (response.status !== 401 || !token) return response;
  const internal = internals.get(session);
  if (internal && (await internal.refreshNow())) {
    const retried = await send(await session.accessToken());
    if (retried.status !== 401) return retried;
    internal.end('expired');
    return retried;
  }
  internal?.end('expired');
  return response;
}

/**
 * Whether the front end may offer pasting a token: always when no provider is configured
 * (developerFallback), and beside the provider's sign-in when the service says so (local development).
 */
export function tokenPasteOffered(session: AuthSession): boolean {
  return internals.get(session)?.pasteOffered ?? session.developerFallback;
}

async function loadConfig(apiBase: string): Promise<SignInConfig> {
  let response: Response;
  try {
    response = await fetch(`${apiBase}/api/auth/config`, { headers: { accept: 'application/json' }, cache: 'no-store' });
  } catch {
    throw new SignInError('config-unavailable', 'The service cannot be reached.');
  }
  if (!response.ok) throw new SignInError('config-unavailable', `GET /api/auth/config answered ${response.status}.`);
  return parseSignInConfig(await response.json().catch(() => undefined));
}
