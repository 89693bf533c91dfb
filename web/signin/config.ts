/** GET /api/auth/config as the browser reads it (the server's schema is in shared/auth/signInConfig.ts). */
export interface SignInConfig {
  /** null when no OpenID provider is configured: only the developer token paste is offered then. */
  signIn: { authority: string; clientIds: { portal: string | null; app: string | null }; scope: string } | null;
  developerTokenPaste: boolean;
}

/** Why signing in failed; the front ends show a text per code in their own language. */
export type SignInErrorCode =
  | 'config-unavailable'
  | 'provider-unreachable'
  | 'state-mismatch'
  | 'missing-code'
  | 'provider-refused'
  | 'exchange-failed'
  | 'not-configured';

export class SignInError extends Error {
  constructor(
    readonly code: SignInErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'SignInError';
  }
}

export function parseSignInConfig(value: unknown): SignInConfig {
  const fail = () => new SignInError('config-unavailable', 'GET /api/auth/config answered something this page does not understand.');
  if (typeof value !== 'object' || value === null) throw fail();
  const { signIn, developerTokenPaste } = value as Record<string, unknown>;
  if (typeof developerTokenPaste !== 'boolean') throw fail();
  if (signIn === null) return { signIn: null, developerTokenPaste };
  if (typeof signIn !== 'object' || signIn === undefined) throw fail();
  const { authority, clientIds, scope } = signIn as Record<string, unknown>;
  if (typeof authority !== 'string' || typeof scope !== 'string' || typeof clientIds !== 'object' || clientIds === null) throw fail();
  const ids = clientIds as Record<string, unknown>;
  const id = (name: string) => {
    const value = ids[name];
    return typeof value === 'string' ? value : null;
  };
  return { signIn: { authority, clientIds: { portal: id('portal'), app: id('app') }, scope }, developerTokenPaste };
}
