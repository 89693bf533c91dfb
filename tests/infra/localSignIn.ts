import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { environmentSettings } from './settingsSources';

export interface LocalSignIn {
  /** AUTH_ISSUER as main.bicep builds it from the tenant. */
  issuer: string;
  /** Where the app reads the tenant's signing keys (AUTH_JWKS_URL), here a local JWKS. */
  jwksUrl: string;
  /** An RS256 access token for staging's audience with these platform roles, as Entra ID issues one. */
  token(sub: string, roles: string[]): Promise<string>;
  close(): Promise<void>;
}

/** The tenant's token signing for a contract test: the issuer infra derives, the keys served locally. */
export async function startLocalSignIn(tenant: string): Promise<LocalSignIn> {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const jwks = JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid: 'contract', alg: 'RS256', use: 'sig' }] });
  const server = http.createServer((_request, response) => response.writeHead(200, { 'content-type': 'application/json' }).end(jwks));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `https://login.microsoftonline.com/${tenant}/v2.0`;
  return {
    issuer,
    jwksUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/discovery/v2.0/keys`,
    token: (sub, roles) =>
      new SignJWT({ roles })
        .setProtectedHeader({ alg: 'RS256', kid: 'contract' })
        .setSubject(sub)
        .setIssuer(issuer)
        .setAudience(environmentSettings('staging')['AUTH_AUDIENCE'] ?? '')
        .setIssuedAt()
        .setExpirationTime('10m')
        .sign(privateKey),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
