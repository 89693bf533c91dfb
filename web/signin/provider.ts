import * as oauth from 'oauth4webapi';
import type { PendingSignIn } from './callback';
import { SignInError } from './config';

/**
 * The OpenID provider as this browser talks to it, through oauth4webapi (a certified client):
 * discovery, the authorization URL with PKCE (S256), the code exchange and refresh, revocation
 * and the end-session URL.
 */
export interface ProviderClient {
  authorizationUrl(redirectUri: string, returnTo: string): Promise<{ url: URL; pending: PendingSignIn }>;
  exchangeCode(callbackUrl: URL, redirectUri: string, pending: PendingSignIn): Promise<oauth.TokenEndpointResponse>;
  refresh(refreshToken: string): Promise<oauth.TokenEndpointResponse>;
  revoke(token: string): Promise<void>;
  endSessionUrl(idToken: string | undefined, postLogoutRedirectUri: string): Promise<URL | undefined>;
  idTokenClaims(response: oauth.TokenEndpointResponse): oauth.IDToken | undefined;
}

/** Plain http only for a provider on this machine (the local development provider). */
function loopback(url: URL): boolean {
  return url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
}

export function providerClient(authority: string, clientId: string, scope: string): ProviderClient {
  const issuer = new URL(authority);
  const insecure = { [oauth.allowInsecureRequests]: loopback(issuer) };
  const client: oauth.Client = { client_id: clientId };
  const auth = oauth.None();
  let discovered: Promise<oauth.AuthorizationServer> | undefined;

  const server = (): Promise<oauth.AuthorizationServer> => {
    discovered ??= (async () => {
      let response: Response;
      try {
        response = await oauth.discoveryRequest(issuer, { ...insecure, algorithm: 'oidc' });
      } catch {
        throw new SignInError('provider-unreachable', `The sign-in service at ${issuer.origin} cannot be reached.`);
      }
      try {
        return await oauth.processDiscoveryResponse(issuer, response);
      } catch {
        throw new SignInError('provider-unreachable', `The sign-in service at ${issuer.origin} did not answer as an OpenID provider.`);
      }
    })();
    // A failed discovery is tried again next time (the provider may be back).
    discovered.catch(() => (discovered = undefined));
    return discovered;
  };

  const tokenCall = async (call: (as: oauth.AuthorizationServer) => Promise<oauth.TokenEndpointResponse>) => {
    const as = await server();
    try {
      return await call(as);
    } catch (error) {
      if (error instanceof SignInError) throw error;
      if (error instanceof oauth.ResponseBodyError)
        throw new SignInError('exchange-failed', `${error.error}: ${error.error_description ?? ''}`.trim());
      if (error instanceof TypeError)
        throw new SignInError('provider-unreachable', `The sign-in service at ${issuer.origin} cannot be reached.`);
      throw new SignInError('exchange-failed', error instanceof Error ? error.message : String(error));
    }
  };

  return {
    async authorizationUrl(redirectUri, returnTo) {
      const as = await server();
      if (!as.authorization_endpoint) throw new SignInError('provider-unreachable', 'The provider has no authorization endpoint.');
      const pending: PendingSignIn = {
        state: oauth.generateRandomState(),
        nonce: oauth.generateRandomNonce(),
        codeVerifier: oauth.generateRandomCodeVerifier(),
        returnTo,
      };
      const url = new URL(as.authorization_endpoint);
      url.search = new URLSearchParams({
        client_id: clientId,
        redirect_uri: redirectUri,
        response_type: 'code',
        scope,
        state: pending.state,
        nonce: pending.nonce,
        code_challenge: await oauth.calculatePKCECodeChallenge(pending.codeVerifier),
        code_challenge_method: 'S256',
      }).toString();
      return { url, pending };
    },

    exchangeCode(callbackUrl, redirectUri, pending) {
      return tokenCall(async (as) => {
        // Checked first, so a forged or stale answer is named as such whatever else it lacks.
        if (callbackUrl.searchParams.get('state') !== pending.state) {
          throw new SignInError('state-mismatch', 'The sign-in answer does not belong to this tab (state mismatch).');
        }
        let parameters: URLSearchParams;
        try {
          parameters = oauth.validateAuthResponse(as, client, callbackUrl, pending.state);
        } catch (error) {
          if (error instanceof oauth.AuthorizationResponseError) {
            throw new SignInError('provider-refused', `${error.error}${error.error_description ? `: ${error.error_description}` : ''}`);
          }
          throw new SignInError(
            'missing-code',
            `The sign-in answer is incomplete: ${error instanceof Error ? error.message : String(error)}`,
          );
        }
        if (!parameters.get('code')) throw new SignInError('missing-code', 'The sign-in answer carries no authorization code.');
        const response = await oauth.authorizationCodeGrantRequest(
          as,
          client,
          auth,
          parameters,
          redirectUri,
          pending.codeVerifier,
          insecure,
        );
        return oauth.processAuthorizationCodeResponse(as, client, response, { expectedNonce: pending.nonce, requireIdToken: true });
      });
    },

    refresh(refreshToken) {
      return tokenCall(async (as) => {
        const response = await oauth.refreshTokenGrantRequest(as, client, auth, refreshToken, insecure);
        return oauth.processRefreshTokenResponse(as, client, response);
      });
    },

    async revoke(token) {
      const as = await server().catch(() => undefined);
      if (!as?.revocation_endpoint) return;
      // Best effort: sign-out goes on even when the provider cannot be told.
      await oauth.revocationRequest(as, client, auth, token, insecure).catch(() => undefined);
    },

    async endSessionUrl(idToken, postLogoutRedirectUri) {
      const as = await server().catch(() => undefined);
      if (!as?.end_session_endpoint) return undefined;
      const url = new URL(as.end_session_endpoint);
      url.searchParams.set('client_id', clientId);
      url.searchParams.set('post_logout_redirect_uri', postLogoutRedirectUri);
      if (idToken) url.searchParams.set('id_token_hint', idToken);
      return url;
    },

    idTokenClaims: (response) => oauth.getValidatedIdTokenClaims(response),
  };
}
