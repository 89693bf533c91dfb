import { randomBytes } from 'node:crypto';
import { exportJWK, generateKeyPair } from 'jose';
import Provider, { errors, type ClientMetadata, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import { demoUserBySub } from './demoUsers';
import { errorPage, logoutPage, signedOutPage } from './pages';

/** The two public clients (single-page apps) and where each is served on the function host. */
export const LOCAL_CLIENTS = { portal: '/portal/', app: '/app/' } as const;

/**
 * The resource indicator of the API (RFC 8707). oidc-provider wants an absolute URI here; the
 * tokens' `aud` is the API audience the host verifies, which need not be one.
 */
export const API_RESOURCE = 'urn:shooting-club:api';
/** The scope the API's resource server grants, as Entra ID's exposed API scope would. */
export const API_SCOPE = 'api';

export interface LocalProviderOptions {
  issuer: string;
  /** Origins of the function host (e.g. http://127.0.0.1:7071); each client's redirect URI is on them. */
  appOrigins: readonly string[];
  /** The `aud` of access tokens: the host's AUTH_AUDIENCE. */
  audience: string;
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
}

/**
 * The local OpenID provider (oidc-provider, a certified implementation): authorization code with
 * PKCE for public clients only, RS256 JWT access tokens for the API with the `roles` and `name`
 * claims the API reads, rotating refresh tokens, revocation and RP-initiated sign-out. Signing and cookie keys
 * are made at start, so tokens of an earlier run are refused.
 */
export async function createLocalProvider(options: LocalProviderOptions): Promise<Provider> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const signingKey = { ...(await exportJWK(privateKey)), kid: `local-${randomBytes(6).toString('hex')}`, alg: 'RS256', use: 'sig' };
  const clients: ClientMetadata[] = Object.entries(LOCAL_CLIENTS).map(([clientId, path]) => {
    const uris = options.appOrigins.map((origin) => `${origin.replace(/\/+$/, '')}${path}`);
    return {
      client_id: clientId,
      client_name: clientId === 'portal' ? 'Admin portal' : 'Member app',
      application_type: 'web',
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      redirect_uris: uris,
      post_logout_redirect_uris: uris,
    };
  });
  const origins = new Set(options.appOrigins.map((origin) => new URL(origin).origin));

  const configuration: Configuration = {
    clients,
    jwks: { keys: [signingKey] },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    claims: { openid: ['sub'], profile: ['name'] },
    scopes: ['openid', 'offline_access', 'profile'],
    // The authorization code flow only: no implicit or hybrid responses.
    responseTypes: ['code'],
    pkce: { required: () => true },
    clientBasedCORS: (_ctx, origin) => origins.has(origin),
    ttl: {
      AccessToken: options.accessTokenTtlSeconds,
      // Like Entra ID's refresh tokens for single-page apps: a fixed lifetime that rotation does not extend.
      RefreshToken: options.refreshTokenTtlSeconds,
      Grant: options.refreshTokenTtlSeconds,
      Session: options.refreshTokenTtlSeconds,
      IdToken: 3600,
      Interaction: 600,
      AuthorizationCode: 60,
    },
    findAccount(_ctx, sub) {
      const user = demoUserBySub(sub);
      if (!user) return undefined;
      return { accountId: user.sub, claims: () => ({ sub: user.sub, name: user.name }) };
    },
    // Public clients get a refresh token whenever they may use the grant (Entra ID does for SPAs with offline_access).
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    extraTokenClaims(_ctx, token) {
      if (token.kind !== 'AccessToken') return undefined;
      // The name as Entra ID's v2 access tokens carry it: the API makes the person's profile from it.
      const user = demoUserBySub(token.accountId);
      return { roles: user?.roles ?? [], ...(user ? { name: user.name } : {}) };
    },
    // First-party clients: consent is implied, as for an Entra ID app with admin consent granted.
    async loadExistingGrant(ctx: KoaContextWithOIDC) {
      const { client, session } = ctx.oidc;
      if (!client || !session?.accountId) return undefined;
      const grantId = (ctx.oidc.result?.consent as { grantId?: string } | undefined)?.grantId ?? session.grantIdFor(client.clientId);
      if (grantId) {
        const existing = await ctx.oidc.provider.Grant.find(grantId);
        if (existing) return existing;
      }
      const grant = new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope('openid offline_access profile');
      grant.addResourceScope(API_RESOURCE, API_SCOPE);
      await grant.save();
      return grant;
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    features: {
      devInteractions: { enabled: false },
      revocation: { enabled: true },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource(ctx, form) {
          ctx.type = 'html';
          ctx.body = logoutPage(form);
        },
        postLogoutSuccessSource(ctx) {
          ctx.type = 'html';
          ctx.body = signedOutPage();
        },
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => API_RESOURCE,
        useGrantedResource: () => true,
        getResourceServerInfo(_ctx, indicator) {
          if (indicator !== API_RESOURCE) throw new errors.InvalidTarget();
          return {
            scope: API_SCOPE,
            audience: options.audience,
            accessTokenFormat: 'jwt',
            accessTokenTTL: options.accessTokenTtlSeconds,
            jwt: { sign: { alg: 'RS256' } },
          };
        },
      },
    },
    renderError(ctx, out) {
      ctx.type = 'html';
      ctx.body = errorPage(
        String(out['error'] ?? 'error'),
        out['error_description'] === undefined ? undefined : String(out['error_description']),
      );
    },
  };
  return new Provider(options.issuer, configuration);
}
