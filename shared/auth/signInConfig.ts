import * as v from 'valibot';
import type { Settings } from '../config/settings';

/** The body of GET /api/auth/config: what a browser needs to start the authorization-code flow. */
export const SignInConfigSchema = v.pipe(
  v.object({
    signIn: v.nullable(
      v.object({
        authority: v.pipe(v.string(), v.description('Issuer URL; its /.well-known/openid-configuration is the discovery document')),
        clientIds: v.object({
          portal: v.pipe(v.nullable(v.string()), v.description("The admin portal's client id; null: the portal cannot sign in")),
          app: v.pipe(v.nullable(v.string()), v.description("The member app's client id; null: the app cannot sign in")),
        }),
        scope: v.pipe(v.string(), v.description('Space-separated scopes to request, including the API scope')),
      }),
    ),
    developerTokenPaste: v.pipe(v.boolean(), v.description('Whether the front ends offer pasting a bearer token (developer fallback)')),
  }),
  v.title('SignInConfig'),
);
export type SignInConfig = v.InferOutput<typeof SignInConfigSchema>;

type SignInSettings = Pick<
  Settings,
  'AUTH_OIDC_AUTHORITY' | 'AUTH_PORTAL_CLIENT_ID' | 'AUTH_APP_CLIENT_ID' | 'AUTH_OIDC_SCOPE' | 'AUTH_TOKEN_PASTE'
>;

/**
 * Sign-in as configured. Without an authority, sign-in is not configured: the answer says so and
 * offers the token paste, the only way in then (as before sign-in existed).
 */
export function signInConfigOf(settings: SignInSettings): SignInConfig {
  if (!settings.AUTH_OIDC_AUTHORITY) return { signIn: null, developerTokenPaste: true };
  return {
    signIn: {
      // The issuer exactly as configured: discovery checks the document's issuer against it.
      authority: settings.AUTH_OIDC_AUTHORITY,
      clientIds: { portal: settings.AUTH_PORTAL_CLIENT_ID ?? null, app: settings.AUTH_APP_CLIENT_ID ?? null },
      scope: settings.AUTH_OIDC_SCOPE,
    },
    developerTokenPaste: settings.AUTH_TOKEN_PASTE,
  };
}
