import { randomBytes } from 'node:crypto';
import https from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FORECAST_COLUMNS, forecastRecords, usageRecords, type FakeDataset, type WireColumn } from './dataset';
import { invalidSecret, noHistory, replays, serverError, type Replay } from './wire';

/**
 * A stand-in for Entra ID (openid-configuration + token endpoint) and Cost Management (Query and
 * Forecast), speaking their wire format over TLS on 127.0.0.1, so that @azure/identity and
 * @azure/arm-costmanagement run unchanged against it. Failures are switched on per operation.
 */

export type FakeFailure =
  | 'expired_secret'
  | 'rbac_denied'
  | 'authorization_failed'
  | 'not_registered'
  | 'rate_limited'
  | 'rate_limited_qpu'
  | 'unsupported_offer'
  | 'cant_forecast_on_the_past'
  | 'no_history'
  | 'server_error'
  | 'bad_gateway';

export type FakeOperation = 'token' | 'query' | 'forecast';

export interface FakeRequest {
  operation: FakeOperation | 'openid' | 'unknown';
  method: string;
  path: string;
  apiVersion?: string;
  skipToken?: string;
  body?: unknown;
  status: number;
}

export interface FakeProviderOptions {
  tls: { cert: string; key: string };
  dataset: FakeDataset;
  tenantId: string;
  clientId: string;
  clientSecret: string;
  subscriptionId: string;
  /** Rows per page before a nextLink (Cost Management pages at about 1,000). */
  pageSize?: number;
  /** Token lifetime in seconds (Entra ID: about an hour). */
  tokenLifetimeSeconds?: number;
  /** Column order of query answers: Azure's (aggregation, UsageDate, groupings, Currency) or reversed. */
  columnOrder?: 'azure' | 'reversed';
  /** The api-version answered; another one gets 400, as Azure does for unknown versions. */
  apiVersion?: string;
}

export interface FakeCostProvider {
  authUrl: string;
  apiUrl: string;
  requests: FakeRequest[];
  /** Every later `operation` request fails with `failure` (`times` times, or until cleared). */
  fail(operation: FakeOperation, failure: FakeFailure, times?: number): void;
  clearFailures(): void;
  /** Holds every Cost Management answer (query, forecast) back by `ms` (0 = none): a slow provider. */
  delayAnswers(ms: number): void;
  /** Access tokens handed out so far (tests check that none reaches a log). */
  issuedTokens(): string[];
  setTokenLifetime(seconds: number): void;
  /** Requests of one operation so far. */
  count(operation: FakeRequest['operation']): number;
  close(): Promise<void>;
}

interface Switch {
  failure: FakeFailure;
  remaining: number;
}

const JSON_TYPE = 'application/json; charset=utf-8';

export async function startFakeCostProvider(options: FakeProviderOptions): Promise<FakeCostProvider> {
  const pageSize = options.pageSize ?? 1000;
  const apiVersion = options.apiVersion ?? '2025-03-01';
  let tokenLifetime = options.tokenLifetimeSeconds ?? 3599;
  const issued = new Set<string>();
  const requests: FakeRequest[] = [];
  const switches = new Map<FakeOperation, Switch>();
  const usage = usageRecords(options.dataset);
  const forecast = forecastRecords(options.dataset);

  const switched = (operation: FakeOperation): FakeFailure | undefined => {
    const current = switches.get(operation);
    if (!current) return undefined;
    current.remaining -= 1;
    if (current.remaining <= 0) switches.delete(operation);
    return current.failure;
  };

  let answerDelayMs = 0;
  const send = (res: ServerResponse, record: FakeRequest, { status, headers, body }: Replay) => {
    record.status = status;
    requests.push(record);
    const write = () => {
      if (res.destroyed) return;
      res.writeHead(status, { 'content-type': JSON_TYPE, ...headers });
      res.end(status === 204 ? undefined : JSON.stringify(body));
    };
    if (answerDelayMs > 0 && (record.operation === 'query' || record.operation === 'forecast')) setTimeout(write, answerDelayMs).unref();
    else write();
  };

  // --- Entra ID -----------------------------------------------------------------------------
  const auth = https.createServer(options.tls, (req, res) => {
    void readBody(req).then((raw) => {
      const url = new URL(req.url ?? '/', authUrl);
      const record: FakeRequest = { operation: 'unknown', method: req.method ?? 'GET', path: url.pathname, status: 0 };
      const tenant = options.tenantId;
      if (req.method === 'GET' && url.pathname === `/${tenant}/v2.0/.well-known/openid-configuration`) {
        record.operation = 'openid';
        return send(res, record, {
          status: 200,
          headers: {},
          body: {
            token_endpoint: `${authUrl}/${tenant}/oauth2/v2.0/token`,
            authorization_endpoint: `${authUrl}/${tenant}/oauth2/v2.0/authorize`,
            issuer: `${authUrl}/${tenant}/v2.0`,
            jwks_uri: `${authUrl}/${tenant}/discovery/v2.0/keys`,
          },
        });
      }
      if (req.method === 'POST' && url.pathname === `/${tenant}/oauth2/v2.0/token`) {
        record.operation = 'token';
        const form = new URLSearchParams(raw);
        const failure = switched('token');
        if (failure === 'expired_secret') return send(res, record, replays.expiredSecret());
        if (failure === 'server_error' || failure === 'bad_gateway')
          return send(res, record, serverError(failure === 'server_error' ? 503 : 502));
        if (form.get('grant_type') !== 'client_credentials' || form.get('client_id') !== options.clientId) {
          return send(res, record, {
            status: 400,
            headers: {},
            body: {
              error: 'unauthorized_client',
              error_description: `AADSTS700016: Application with identifier '${form.get('client_id') ?? ''}' was not found.`,
              error_codes: [700016],
            },
          });
        }
        if (form.get('client_secret') !== options.clientSecret) return send(res, record, invalidSecret(options.clientId));
        if (form.get('scope') !== `${apiUrl}/.default`) {
          return send(res, record, {
            status: 400,
            headers: {},
            body: {
              error: 'invalid_scope',
              error_description: `AADSTS70011: The provided value for scope ${form.get('scope') ?? ''} is not valid.`,
              error_codes: [70011],
            },
          });
        }
        const token = `fake-${randomBytes(12).toString('hex')}`;
        issued.add(token);
        return send(res, record, {
          status: 200,
          headers: {},
          body: { token_type: 'Bearer', expires_in: tokenLifetime, ext_expires_in: tokenLifetime, access_token: token },
        });
      }
      send(res, record, { status: 404, headers: {}, body: { error: 'not_found' } });
    });
  });

  // --- Cost Management ----------------------------------------------------------------------
  const api = https.createServer(options.tls, (req, res) => {
    void readBody(req).then((raw) => {
      const url = new URL(req.url ?? '/', apiUrl);
      const match = /^\/subscriptions\/([^/]+)\/providers\/Microsoft\.CostManagement\/(query|forecast)$/i.exec(url.pathname);
      const record: FakeRequest = {
        operation: match ? (match[2]!.toLowerCase() as FakeOperation) : 'unknown',
        method: req.method ?? 'GET',
        path: url.pathname,
        apiVersion: url.searchParams.get('api-version') ?? undefined,
        skipToken: url.searchParams.get('$skiptoken') ?? undefined,
        status: 0,
      };
      const armError = (status: number, code: string, message: string) =>
        send(res, record, { status, headers: {}, body: { error: { code, message } } });
      if (!match || req.method !== 'POST') return armError(404, 'NotFound', `No HTTP resource was found for ${url.pathname}.`);
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      if (!token || !issued.has(token)) return armError(401, 'InvalidAuthenticationToken', 'The access token is invalid.');
      if (record.apiVersion !== apiVersion)
        return armError(400, 'InvalidApiVersionParameter', `The api-version '${record.apiVersion ?? ''}' is invalid.`);
      if (match[1] !== options.subscriptionId)
        return armError(404, 'SubscriptionNotFound', `The subscription '${match[1]}' could not be found.`);
      let body: QueryBody;
      try {
        body = JSON.parse(raw) as QueryBody;
      } catch {
        return armError(400, 'BadRequest', 'The request body is not JSON.');
      }
      record.body = body;
      const operation = record.operation as 'query' | 'forecast';
      const failure = switched(operation);
      if (failure) return send(res, record, apiFailure(failure));
      if (body.timeframe !== 'Custom' || !body.timePeriod?.from || !body.timePeriod.to) {
        return armError(400, 'BadRequest', 'The fake answers Custom timeframes only.');
      }
      const from = usageDate(body.timePeriod.from);
      const to = usageDate(body.timePeriod.to);
      const answer = operation === 'query' ? queryAnswer(body, from, to) : forecastAnswer(from, to);
      const offset = record.skipToken ? Number(Buffer.from(record.skipToken, 'base64url').toString()) : 0;
      const page = answer.rows.slice(offset, offset + pageSize);
      const nextLink =
        offset + pageSize < answer.rows.length
          ? // Absolute, with its own (older) api-version, as Azure writes them.
            `${apiUrl}${url.pathname}?api-version=2021-10-01&$skiptoken=${Buffer.from(String(offset + pageSize)).toString('base64url')}`
          : null;
      const id = randomBytes(16).toString('hex');
      send(res, record, {
        status: 200,
        headers: {},
        body: {
          id: `subscriptions/${options.subscriptionId}/providers/Microsoft.CostManagement/${operation}/${id}`,
          name: id,
          type: `Microsoft.CostManagement/${operation}`,
          location: null,
          sku: null,
          eTag: null,
          properties: { nextLink, columns: answer.columns, rows: page },
        },
      });
    });
  });

  function queryAnswer(body: QueryBody, from: number, to: number): { columns: WireColumn[]; rows: unknown[][] } {
    const groupings = (body.dataset?.grouping ?? []).map((grouping) => grouping.name);
    const daily = body.dataset?.granularity === 'Daily';
    const sums = new Map<string, { key: (string | number)[]; cost: number; currency: string }>();
    for (const record of usage) {
      if (record.date < from || record.date > to) continue;
      const groups = groupings.map((name) =>
        name === 'ResourceGroupName' ? record.resourceGroup : name === 'ServiceName' ? record.service : '',
      );
      const key = [...(daily ? [record.date] : []), ...groups];
      const id = JSON.stringify([...key, record.currency]);
      const sum = sums.get(id) ?? sums.set(id, { key, cost: 0, currency: record.currency }).get(id)!;
      sum.cost += record.cost;
    }
    let columns: WireColumn[] = [
      { name: 'Cost', type: 'Number' },
      ...(daily ? [{ name: 'UsageDate', type: 'Number' as const }] : []),
      ...groupings.map((name) => ({ name, type: 'String' as const })),
      { name: 'Currency', type: 'String' },
    ];
    let rows: unknown[][] = [...sums.values()].map(({ key, cost, currency }) => [cost, ...key, currency]);
    if (options.columnOrder === 'reversed') {
      columns = [...columns].reverse();
      rows = rows.map((row) => [...row].reverse());
    }
    return { columns, rows };
  }

  function forecastAnswer(from: number, to: number): { columns: WireColumn[]; rows: unknown[][] } {
    const rows = forecast.filter((row) => row.date >= from && row.date <= to).map((row) => [row.cost, row.date, 'Forecast', row.currency]);
    return { columns: FORECAST_COLUMNS, rows };
  }

  const listen = (server: https.Server) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
    });
  const authUrl = `https://127.0.0.1:${await listen(auth)}`;
  const apiUrl = `https://127.0.0.1:${await listen(api)}`;

  const close = (server: https.Server) =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });

  return {
    authUrl,
    apiUrl,
    requests,
    fail(operation, failure, times = Number.POSITIVE_INFINITY) {
      switches.set(operation, { failure, remaining: times });
    },
    clearFailures: () => switches.clear(),
    delayAnswers(ms) {
      answerDelayMs = ms;
    },
    issuedTokens: () => [...issued],
    setTokenLifetime(seconds) {
      tokenLifetime = seconds;
    },
    count: (operation) => requests.filter((request) => request.operation === operation).length,
    close: async () => {
      await Promise.all([close(auth), close(api)]);
    },
  };
}

interface QueryBody {
  type?: string;
  timeframe?: string;
  timePeriod?: { from?: string; to?: string };
  dataset?: { granularity?: string; grouping?: { type: string; name: string }[] };
}

function apiFailure(failure: FakeFailure): Replay {
  switch (failure) {
    case 'rbac_denied':
      return replays.rbacDenied();
    case 'authorization_failed':
      return replays.authorizationFailed();
    case 'not_registered':
      return replays.notRegistered();
    case 'rate_limited':
      return replays.rateLimited();
    case 'rate_limited_qpu':
      return replays.rateLimitedQpu();
    case 'unsupported_offer':
      return replays.unsupportedOffer();
    case 'cant_forecast_on_the_past':
      return replays.cantForecastOnThePast();
    case 'no_history':
      return noHistory();
    case 'bad_gateway':
      return serverError(502);
    default:
      return serverError(503);
  }
}

/** `2026-11-01T00:00:00.000Z` → 20261101. */
function usageDate(iso: string): number {
  return Number(iso.slice(0, 10).replace(/-/g, ''));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
