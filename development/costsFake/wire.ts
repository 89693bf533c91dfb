import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Answers of Entra ID and Cost Management as they arrive on the wire: the error replays are
 * reconstructions of captured responses (see wire/ and docs/costs.md).
 */
export interface Replay {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

const load = <T>(file: string) => JSON.parse(readFileSync(path.join(__dirname, 'wire', file), 'utf8')) as T;

export const replays = {
  expiredSecret: () => load<Replay>('aad-token-401-AADSTS7000222-expired-secret.json'),
  rbacDenied: () => load<Replay>('arm-401-RBACAccessDenied.json'),
  authorizationFailed: () => load<Replay>('arm-403-AuthorizationFailed.json'),
  notRegistered: () => load<Replay>('arm-409-MissingSubscriptionRegistration.json'),
  rateLimited: () => load<Replay>('costmanagement-429-clienttype-throttled.json'),
  rateLimitedQpu: () => load<Replay>('costmanagement-429-qpu-throttled.json'),
  unsupportedOffer: () => load<Replay>('costmanagement-404-unsupported-offer.json'),
  cantForecastOnThePast: () => load<Replay>('forecast-400-CantForecastOnThePast.json'),
};

/** AADSTS7000215, the token endpoint's answer to a wrong (not expired) secret. */
export function invalidSecret(clientId: string): Replay {
  const description = `AADSTS7000215: Invalid client secret provided. Ensure the secret being sent in the request is the client secret value, not the client secret ID, for a secret added to app '${clientId}'.`;
  return {
    status: 401,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: {
      error: 'invalid_client',
      error_description: description,
      error_codes: [7000215],
      error_uri: 'https://login.microsoftonline.com/error?code=7000215',
    },
  };
}

export function serverError(status: number): Replay {
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: {
      error: { code: status === 503 ? 'ServiceUnavailable' : 'InternalServerError', message: 'The service is temporarily unavailable.' },
    },
  };
}

export function noHistory(): Replay {
  return {
    status: 424,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: { error: { code: 'FailedDependency', message: 'Forecast is unavailable: not enough history for the scope.' } },
  };
}
