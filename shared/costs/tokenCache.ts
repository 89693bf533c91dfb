import type { AccessToken, GetTokenOptions, TokenCredential } from '@azure/identity';

/** A token is used until this long before it expires, then replaced. */
export const TOKEN_REFRESH_BUFFER_MS = 60_000;

/**
 * Keeps the last token per scope until TOKEN_REFRESH_BUFFER_MS before its expiry, and lets
 * concurrent callers share one fetch. The Cost Management client asks for a token on every
 * request; this decides when the token endpoint is actually called.
 */
export function cachingCredential(inner: TokenCredential, now: () => number = Date.now): TokenCredential {
  const tokens = new Map<string, AccessToken>();
  const fetching = new Map<string, Promise<AccessToken>>();
  return {
    async getToken(scopes: string | string[], options?: GetTokenOptions): Promise<AccessToken> {
      const key = [scopes].flat().join(' ');
      // A claims challenge asks for a new token whatever the cache holds.
      const token = options?.claims ? undefined : tokens.get(key);
      if (token && now() < token.expiresOnTimestamp - TOKEN_REFRESH_BUFFER_MS) return token;
      let pending = fetching.get(key);
      if (!pending) {
        pending = inner
          .getToken(scopes, options)
          .then((fresh) => {
            if (!fresh) throw new Error('the credential returned no token');
            tokens.set(key, fresh);
            return fresh;
          })
          .finally(() => fetching.delete(key));
        fetching.set(key, pending);
      }
      return pending;
    },
  };
}
