import { randomBytes, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, jwtVerify, SignJWT, type JWK } from 'jose';

/**
 * A local stand-in for the managed identity endpoint that App Service, Functions and Container
 * Apps give a process (IDENTITY_ENDPOINT, IDENTITY_HEADER), in its wire format (API version
 * 2019-08-01): `GET <endpoint>?api-version=2019-08-01&resource=<audience>[&client_id=<id>]` with the
 * header `X-IDENTITY-HEADER: <secret>` answers `{access_token, expires_on, resource, token_type,
 * client_id}`. @azure/identity's ManagedIdentityCredential (MSAL's App Service source) and
 * DefaultAzureCredential reach it with no code of their own, so a process started with these two
 * variables takes exactly the token path it takes in Azure.
 *
 * Tokens are ES256 JWTs with the claims Azure's have (aud, iss, nbf, exp, appid, oid); the local
 * Event Hubs endpoint verifies them with `verify`, Azurite (OAuth "basic") checks audience, issuer
 * and lifetime. Only the client ids given are known: another id, a missing or wrong header, or a
 * resource outside the list is refused as the service refuses it (400/401 with an error body).
 */
export interface IdentityEndpointOptions {
  /** Client ids of the user-assigned identities this endpoint serves. */
  clientIds: string[];
  /**
   * The client id reported for a request without client_id (a system-assigned identity, or where
   * DefaultAzureCredential stands in for an operator's or a workflow's Azure CLI login). Unset:
   * such requests are refused, as on an app with user-assigned identities only.
   */
  systemAssignedId?: string;
  /** Audiences it issues tokens for, e.g. https://storage.azure.com/ */
  resources?: string[];
}

export interface TokenRequest {
  resource: string;
  clientId: string | undefined;
}

export interface IdentityEndpoint {
  /** The environment a process needs to use it: IDENTITY_ENDPOINT and IDENTITY_HEADER. */
  environment: { IDENTITY_ENDPOINT: string; IDENTITY_HEADER: string };
  /** Every token issued, in order. */
  issued: TokenRequest[];
  /** Checks a token this endpoint issued for `audience`; answers the client id it was issued to. */
  verify(token: string, audience: string): Promise<{ ok: true; clientId: string } | { ok: false; reason: string }>;
  close(): Promise<void>;
}

export const TENANT_ID = '72f988bf-0000-4000-8000-00000000cafe';
const ISSUER = `https://sts.windows.net/${TENANT_ID}/`;
const API_VERSION = '2019-08-01';
const DEFAULT_RESOURCES = ['https://storage.azure.com/', 'https://eventhubs.azure.net', 'https://vault.azure.net'];

const normal = (resource: string) => resource.replace(/\/+$/, '').replace(/\/\.default$/, '');

export async function startIdentityEndpoint(options: IdentityEndpointOptions): Promise<IdentityEndpoint> {
  const secret = randomBytes(24).toString('base64url');
  const resources = (options.resources ?? DEFAULT_RESOURCES).map(normal);
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid: 'local-identity', alg: 'ES256' };
  const issued: TokenRequest[] = [];

  const refuse = (res: http.ServerResponse, status: number, error: string, description: string) =>
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ error, error_description: description }));

  const server = http.createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://identity.local');
      const header = req.headers['x-identity-header'];
      const given = Buffer.from(typeof header === 'string' ? header : '');
      const expected = Buffer.from(secret);
      if (given.length !== expected.length || !timingSafeEqual(given, expected))
        return refuse(res, 401, 'unauthorized', 'X-IDENTITY-HEADER is missing or wrong');
      if (req.method !== 'GET') return refuse(res, 405, 'invalid_request', 'GET only');
      if (url.searchParams.get('api-version') !== API_VERSION) return refuse(res, 400, 'invalid_request', 'api-version must be 2019-08-01');
      const resource = url.searchParams.get('resource') ?? '';
      if (!resources.includes(normal(resource))) return refuse(res, 400, 'invalid_resource', `no tokens for resource ${resource}`);
      const clientId = url.searchParams.get('client_id') ?? options.systemAssignedId;
      if (!clientId || !(options.clientIds.includes(clientId) || clientId === options.systemAssignedId))
        return refuse(res, 400, 'invalid_request', 'Unable to load the proper Managed Identity (client_id unknown)');
      const now = Math.floor(Date.now() / 1000);
      const expiresOn = now + 3600;
      const token = await new SignJWT({ appid: clientId, oid: clientId, idtyp: 'app' })
        .setProtectedHeader({ alg: 'ES256', kid: jwk.kid ?? '', typ: 'JWT' })
        .setAudience(normal(resource))
        .setIssuer(ISSUER)
        .setSubject(clientId)
        .setNotBefore(now - 300)
        .setIssuedAt(now)
        .setExpirationTime(expiresOn)
        .sign(privateKey);
      issued.push({ resource: normal(resource), clientId });
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ access_token: token, expires_on: String(expiresOn), resource, token_type: 'Bearer', client_id: clientId }));
    })().catch(() => refuse(res, 500, 'server_error', 'token endpoint failed'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    environment: { IDENTITY_ENDPOINT: `http://127.0.0.1:${port}/msi/token`, IDENTITY_HEADER: secret },
    issued,
    async verify(token, audience) {
      try {
        const { payload } = await jwtVerify(token, publicKey, { audience: normal(audience), issuer: ISSUER });
        return { ok: true, clientId: String(payload['appid']) };
      } catch (error) {
        return { ok: false, reason: error instanceof Error ? error.message : 'invalid token' };
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // A credential's keep-alive socket would hold the close open.
        server.closeAllConnections();
      }),
  };
}
