import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import { createTokenVerifier, TokenRejected } from '../../shared/auth/jwt';

/** Production mode: RS256 tokens verified against the identity provider's JWKS endpoint. */
describe('RS256 verification against a JWKS endpoint', () => {
  let server: http.Server;
  let jwksUrl: string;
  let privateKey: CryptoKey;
  let otherKey: CryptoKey;
  const issuer = 'https://login.example.test/tenant/v2.0';
  const audience = 'api://shooting-club';

  beforeAll(async () => {
    const pair = await generateKeyPair('RS256');
    privateKey = pair.privateKey;
    otherKey = (await generateKeyPair('RS256')).privateKey;
    const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'key-1', alg: 'RS256', use: 'sig' };
    server = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ keys: [jwk] }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    jwksUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/discovery/v2.0/keys`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const verifier = () =>
    createTokenVerifier({ AUTH_JWKS_URL: jwksUrl, AUTH_JWT_SECRET: undefined, AUTH_ISSUER: issuer, AUTH_AUDIENCE: audience });
  const sign = (key: CryptoKey, kid = 'key-1') =>
    new SignJWT({ roles: ['ops_admin'] })
      .setProtectedHeader({ alg: 'RS256', kid })
      .setSubject('entra-user')
      .setIssuer(issuer)
      .setAudience(audience)
      .setExpirationTime('10m')
      .sign(key);

  it('accepts a token signed by a published key', async () => {
    await expect(verifier()(await sign(privateKey))).resolves.toMatchObject({ userId: 'entra-user', roles: ['ops_admin'] });
  });

  it('rejects a token signed by an unpublished key', async () => {
    await expect(verifier()(await sign(otherKey))).rejects.toThrow(TokenRejected);
  });

  it('rejects an HS256 token even when its secret is known (no algorithm confusion)', async () => {
    const token = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256', kid: 'key-1' })
      .setSubject('x')
      .setIssuer(issuer)
      .setAudience(audience)
      .setExpirationTime('10m')
      .sign(new TextEncoder().encode('a-secret-that-is-long-enough-for-hs256-signing'));
    await expect(verifier()(token)).rejects.toThrow(/algorithm/);
  });
});
