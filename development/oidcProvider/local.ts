import { getSettings, resetSettings } from '../../shared/config/settings';
import { forgetRunningIssuer, noteRunningIssuer } from './issuerFile';
import { LOCAL_CLIENTS, API_SCOPE } from './provider';
import { startOidcProvider, type RunningOidcProvider } from './server';

/** Lifetimes under npm start: access tokens as short as a test can wait for, refresh tokens as Entra ID's for single-page apps. */
export const LOCAL_ACCESS_TOKEN_TTL_SECONDS = 600;
export const LOCAL_REFRESH_TOKEN_TTL_SECONDS = 86_400;

/**
 * For `npm start`: unless AUTH_OIDC_AUTHORITY names a provider already, the local OpenID provider
 * on a free port of 127.0.0.1, and the host's settings pointing at it, so the API verifies its
 * tokens as in Azure (RS256 against the JWKS, issuer, audience) and the portal signs in through it.
 */
export async function startLocalOidcProvider(port: number): Promise<RunningOidcProvider | undefined> {
  if (process.env['AUTH_OIDC_AUTHORITY']?.trim()) return undefined;
  const audience = getSettings().AUTH_AUDIENCE;
  const provider = await startOidcProvider({
    port: 0,
    appOrigins: [`http://127.0.0.1:${port}`, `http://localhost:${port}`],
    audience,
    accessTokenTtlSeconds: LOCAL_ACCESS_TOKEN_TTL_SECONDS,
    refreshTokenTtlSeconds: LOCAL_REFRESH_TOKEN_TTL_SECONDS,
  });
  Object.assign(process.env, {
    AUTH_JWKS_URL: provider.jwksUrl,
    AUTH_ISSUER: provider.issuer,
    AUTH_OIDC_AUTHORITY: provider.issuer,
    AUTH_PORTAL_CLIENT_ID: 'portal' satisfies keyof typeof LOCAL_CLIENTS,
    AUTH_APP_CLIENT_ID: 'app' satisfies keyof typeof LOCAL_CLIENTS,
    AUTH_OIDC_SCOPE: `openid profile offline_access ${API_SCOPE}`,
  });
  resetSettings();
  await noteRunningIssuer(provider.issuer);
  return {
    ...provider,
    async close() {
      await forgetRunningIssuer();
      await provider.close();
    },
  };
}
