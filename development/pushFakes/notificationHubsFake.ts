import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import https from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { listenLocally, readBody, sendJson } from './fakeHttp';

/**
 * A stand-in for the Azure Notification Hubs REST API (api-version 2020-06) that the real
 * @azure/notification-hubs SDK talks to unchanged. Over HTTPS (the SDK turns the connection
 * string's `sb://` into `https://`), on 127.0.0.1 with a local certificate the client process
 * trusts through NODE_EXTRA_CA_CERTS.
 *
 * - Every request needs a valid SAS token: `Authorization: SharedAccessSignature sr=&sig=&se=&skn=`,
 *   HMAC-SHA256 with the key as UTF-8 over `sr + "\n" + se`, `sr` the lower-cased namespace URL,
 *   `se` not in the past; and `api-version=2020-06`. A bad one gets 401, as the service answers.
 * - `PUT /{hub}/installations/{id}` stores an installation (200, empty), `PATCH` applies JSON-Patch
 *   operations (add, remove, replace), `GET` answers it (404 when unknown), `DELETE` answers 204.
 *   An APNs installation whose push channel is not a hex device token gets 400, as the service does.
 * - `POST /{hub}/messages/` with `ServiceBusNotification-Format` (`template`, `apple`, `fcmv1`)
 *   and `ServiceBusNotification-Tags` answers 201 with TrackingId, x-ms-correlation-request-id and
 *   Location; a template send renders each matching installation's templates (tags `&&` / `||`,
 *   the implicit `$InstallationId:{id}` and `$UserId:{id}` tags, template tags) and records the
 *   platform payload each device would get. A tag matching nothing is still 201: the real hub
 *   does not tell a sender which devices it reached.
 * - Errors are the service's XML: `<Error><Code>…</Code><Detail>…</Detail></Error>`.
 *
 * Not part of the API, for people and tests (no SAS): `GET /_fake/pushes` lists what devices
 * "received", `DELETE /_fake/pushes` forgets it, `GET /_fake/installations` lists installations,
 * `POST /_fake/installations/{id}/expire` marks one's channel expired (APNs or FCM said the app
 * is gone), as the service reports it on later reads (`pushChannelExpired`);
 * `POST /_fake/fail-sends?count=n&status=429&retryAfter=s` (or `failNextSends`) answers the next n
 * sends with that status and, when given, that `Retry-After` (throttling).
 */
export const NOTIFICATION_HUBS_API_VERSION = '2020-06';

export interface HubInstallation {
  installationId: string;
  platform: string;
  pushChannel: string;
  userId?: string;
  tags?: string[];
  templates?: Record<string, { body: string; headers?: Record<string, string>; tags?: string[] }>;
  pushChannelExpired?: boolean;
  lastUpdate?: string;
  expirationTime?: string;
}

export interface HubPush {
  receivedAt: string;
  installationId: string;
  userId: string | undefined;
  platform: string;
  template: string | undefined;
  /** What APNs or FCM would get, parsed. */
  payload: unknown;
  headers: Record<string, string>;
}

export interface FakeNotificationHubs {
  /** `https://127.0.0.1:<port>` */
  endpoint: string;
  hubName: string;
  /** `Endpoint=sb://127.0.0.1:<port>/;SharedAccessKeyName=…;SharedAccessKey=…` for NotificationHubsClient. */
  connectionString: string;
  installations: Map<string, HubInstallation>;
  pushes: HubPush[];
  requests: { sends: number; installationWrites: number; installationReads: number; unauthorized: number };
  /**
   * Answer the next `count` sends with this status (429, 500, 403 quota), as a failing hub would;
   * with `retryAfter` (seconds or an HTTP-date) the answer carries that `Retry-After`, as the hub's
   * throttling does.
   */
  failNextSends(count: number, status: number, retryAfter?: string): void;
  close(): Promise<void>;
}

export interface FakeNotificationHubsOptions {
  tls: { cert: string; key: string };
  port?: number;
  hubName?: string;
  keyName?: string;
  key?: string;
  /** Pushes kept for GET /_fake/pushes; older ones are forgotten. */
  keep?: number;
}

const MAX_BODY = 64 * 1024;

export async function startFakeNotificationHubs(options: FakeNotificationHubsOptions): Promise<FakeNotificationHubs> {
  const hubName = options.hubName ?? 'club-push';
  const keyName = options.keyName ?? 'DefaultFullSharedAccessSignature';
  const key = options.key ?? randomUUID();
  const keep = options.keep ?? 1000;
  const installations = new Map<string, HubInstallation>();
  const pushes: HubPush[] = [];
  const requests = { sends: 0, installationWrites: 0, installationReads: 0, unauthorized: 0 };
  const scripted: { status: number; retryAfter?: string }[] = [];
  let base = '';

  const server = https.createServer({ cert: options.tls.cert, key: options.tls.key }, (request, response) => {
    void readBody(request, MAX_BODY + 1)
      .then((body) => {
        const url = new URL(request.url ?? '/', base);
        if (url.pathname.startsWith('/_fake/')) return control(request, response, url);
        if (!sasValid(request.headers.authorization, base, keyName, key)) {
          requests.unauthorized++;
          return fail(response, 401, 'ExpiredToken: . The token is invalid or expired.');
        }
        if (url.searchParams.get('api-version') !== NOTIFICATION_HUBS_API_VERSION)
          return fail(response, 400, 'The api-version is not supported.');
        if (body.length > MAX_BODY) return fail(response, 413, 'The request is larger than 64 KB.');
        const installation = new RegExp(`^/${hubName}/installations/([^/]+)$`).exec(url.pathname);
        if (installation?.[1]) return installationRequest(request, response, decodeURIComponent(installation[1]), body.toString('utf8'));
        if (request.method === 'POST' && url.pathname === `/${hubName}/messages/`)
          return sendRequest(request, response, body.toString('utf8'));
        return fail(response, 404, 'The messaging entity could not be found.');
      })
      .catch(() => fail(response, 500, 'The fake could not answer.'));
  });

  function tracked(response: ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}): void {
    sendJson(response, status, body, { TrackingId: randomUUID(), 'x-ms-correlation-request-id': randomUUID(), ...headers });
  }

  function installationRequest(request: IncomingMessage, response: ServerResponse, id: string, body: string): void {
    if (request.method === 'GET') {
      requests.installationReads++;
      const found = installations.get(id);
      return found ? tracked(response, 200, found) : fail(response, 404, 'Installation not found.');
    }
    if (request.method === 'DELETE') {
      requests.installationWrites++;
      installations.delete(id);
      return tracked(response, 204);
    }
    if (request.method !== 'PUT' && request.method !== 'PATCH') return fail(response, 405, 'The method is not allowed.');
    requests.installationWrites++;
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return fail(response, 400, 'The request body is not valid JSON.');
    }
    const next = request.method === 'PUT' ? (parsed as HubInstallation) : patched(installations.get(id), parsed);
    if (!next) return fail(response, 404, 'Installation not found.');
    const problem = installationProblem(next, id);
    if (problem) return fail(response, 400, problem);
    installations.set(id, {
      ...next,
      pushChannelExpired: false,
      lastUpdate: new Date().toISOString(),
      expirationTime: '9999-12-31T23:59:59.9999999Z',
    });
    tracked(response, 200);
  }

  function sendRequest(request: IncomingMessage, response: ServerResponse, body: string): void {
    requests.sends++;
    const failure = scripted.shift();
    if (failure) {
      if (failure.retryAfter !== undefined) response.setHeader('Retry-After', failure.retryAfter);
      return fail(response, failure.status, FAILURE_DETAIL[failure.status] ?? 'The hub is unavailable.');
    }
    const format = String(request.headers['servicebusnotification-format'] ?? '');
    if (!['template', 'apple', 'fcmv1', 'gcm', 'windows', 'adm', 'baidu', 'browser', 'xiaomi'].includes(format)) {
      return fail(response, 400, 'The ServiceBusNotification-Format header is missing or not supported.');
    }
    let properties: Record<string, unknown>;
    try {
      properties = JSON.parse(body) as Record<string, unknown>;
    } catch {
      return fail(response, 400, 'The notification body is not valid JSON.');
    }
    const tagHeader = request.headers['servicebusnotification-tags'];
    const expression = typeof tagHeader === 'string' ? tagHeader : undefined;
    const platformHeaders = Object.fromEntries(
      Object.entries(request.headers)
        .filter(([name]) => name.startsWith('apns-'))
        .map(([name, value]) => [name, String(value)]),
    );
    for (const installation of installations.values()) {
      if (installation.pushChannelExpired) continue;
      const own = [
        ...(installation.tags ?? []),
        `$InstallationId:{${installation.installationId}}`,
        ...(installation.userId ? [`$UserId:{${installation.userId}}`] : []),
      ];
      if (format === 'template') {
        for (const [name, template] of Object.entries(installation.templates ?? {})) {
          if (expression !== undefined && !matches(expression, new Set([...own, ...(template.tags ?? [])]))) continue;
          record(installation, name, render(template.body, properties), renderHeaders(template.headers ?? {}, properties));
        }
      } else if (
        installation.platform === (format === 'apple' ? 'apns' : format) &&
        (expression === undefined || matches(expression, new Set(own)))
      ) {
        record(installation, undefined, properties, platformHeaders);
      }
    }
    const notificationId = String(Date.now()) + String(Math.floor(Math.random() * 1e6));
    tracked(response, 201, undefined, {
      Location: `${base}/${hubName}/messages/${notificationId}?api-version=${NOTIFICATION_HUBS_API_VERSION}`,
    });
  }

  function record(installation: HubInstallation, template: string | undefined, payload: unknown, headers: Record<string, string>): void {
    pushes.push({
      receivedAt: new Date().toISOString(),
      installationId: installation.installationId,
      userId: installation.userId,
      platform: installation.platform,
      template,
      payload,
      headers,
    });
    if (pushes.length > keep) pushes.splice(0, pushes.length - keep);
  }

  function control(request: IncomingMessage, response: ServerResponse, url: URL): void {
    if (request.method === 'GET' && url.pathname === '/_fake/pushes') return sendJson(response, 200, { value: pushes });
    if (request.method === 'DELETE' && url.pathname === '/_fake/pushes') {
      pushes.length = 0;
      return sendJson(response, 204);
    }
    if (request.method === 'GET' && url.pathname === '/_fake/installations')
      return sendJson(response, 200, { value: [...installations.values()] });
    if (request.method === 'POST' && url.pathname === '/_fake/fail-sends') {
      const query = url.searchParams;
      failNextSends(Number(query.get('count') ?? '1'), Number(query.get('status') ?? '429'), query.get('retryAfter') ?? undefined);
      return sendJson(response, 204);
    }
    const expire = /^\/_fake\/installations\/([^/]+)\/expire$/.exec(url.pathname);
    const found = expire?.[1] ? installations.get(decodeURIComponent(expire[1])) : undefined;
    if (request.method === 'POST' && found) {
      found.pushChannelExpired = true;
      return sendJson(response, 204);
    }
    return sendJson(response, 404, { error: 'unknown fake control' });
  }

  function failNextSends(count: number, status: number, retryAfter?: string): void {
    for (let index = 0; index < Math.min(count, 10_000); index++) scripted.push({ status, retryAfter });
  }

  const { port, close } = await listenLocally(server, options.port);
  base = `https://127.0.0.1:${port}`;
  return {
    endpoint: base,
    hubName,
    connectionString: `Endpoint=sb://127.0.0.1:${port}/;SharedAccessKeyName=${keyName};SharedAccessKey=${key}`,
    installations,
    pushes,
    requests,
    failNextSends,
    close,
  };
}

/** The SAS scheme of Service Bus and Notification Hubs; the key is used as UTF-8 bytes, not base64-decoded. */
function sasValid(header: string | undefined, base: string, keyName: string, key: string): boolean {
  const match = /^SharedAccessSignature (.+)$/.exec(header ?? '');
  if (!match?.[1]) return false;
  const fields = new Map(match[1].split('&').map((pair) => pair.split('=', 2) as [string, string]));
  const sr = fields.get('sr');
  const se = fields.get('se');
  const sig = fields.get('sig');
  if (!sr || !se || !sig || decodeURIComponent(fields.get('skn') ?? '') !== keyName) return false;
  if (decodeURIComponent(sr) !== `${base}/`.toLowerCase() || Number(se) < Date.now() / 1000) return false;
  const expected = createHmac('sha256', Buffer.from(key, 'utf8')).update(`${sr}\n${se}`).digest('base64');
  const given = decodeURIComponent(sig);
  return given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected));
}

function installationProblem(installation: HubInstallation, id: string): string | undefined {
  if (installation.installationId !== id) return 'The installationId does not match the URL.';
  if (!['apns', 'fcmv1', 'gcm', 'wns', 'adm', 'baidu', 'xiaomi', 'browser'].includes(installation.platform))
    return 'The platform is not supported.';
  if (typeof installation.pushChannel !== 'string' || !installation.pushChannel) return 'The pushChannel is required.';
  if (installation.platform === 'apns' && !/^[0-9a-fA-F]{64,200}$/.test(installation.pushChannel))
    return 'The device token is not a valid APNs token.';
  return undefined;
}

/** JSON-Patch (add, remove, replace) on the paths the service accepts. */
function patched(current: HubInstallation | undefined, operations: unknown): HubInstallation | undefined {
  if (!current || !Array.isArray(operations)) return undefined;
  const next = structuredClone(current) as unknown as Record<string, unknown>;
  for (const operation of operations as { op: string; path: string; value?: unknown }[]) {
    const [field, ...rest] = operation.path.split('/').filter(Boolean);
    if (!field) continue;
    if (rest.length === 0) {
      if (operation.op === 'remove') delete next[field];
      else if (field === 'tags' && operation.op === 'add')
        next['tags'] = [...new Set([...((next['tags'] as string[]) ?? []), ...[operation.value].flat().map(String)])];
      else next[field] = operation.value;
    } else {
      const container = (next[field] ??= {}) as Record<string, unknown>;
      if (operation.op === 'remove') delete container[rest.join('/')];
      else container[rest.join('/')] = operation.value;
    }
  }
  return next as unknown as HubInstallation;
}

/** A tag expression of `&&` and `||` (no parentheses), `&&` binding tighter. */
function matches(expression: string, tags: ReadonlySet<string>): boolean {
  return expression.split('||').some((conjunction) => conjunction.split('&&').every((tag) => tags.has(tag.trim())));
}

/** `$(name)` inside a JSON template becomes the property's value, escaped for a JSON string. */
function render(template: string, properties: Record<string, unknown>): unknown {
  const text = template.replace(/\$\((\w+)\)/g, (_, name: string) => JSON.stringify(propertyText(properties[name])).slice(1, -1));
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function renderHeaders(headers: Record<string, string>, properties: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [
      name,
      value.replace(/\$\((\w+)\)/g, (_, key: string) => propertyText(properties[key])),
    ]),
  );
}

/** A template property as the hub substitutes it: strings as they are, anything else as JSON. */
function propertyText(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

const FAILURE_DETAIL: Record<number, string> = {
  403: 'The notification quota was exceeded.',
  429: 'The request was throttled: too many requests for the namespace tier. Retry later.',
};

function fail(response: ServerResponse, status: number, detail: string): void {
  response.statusCode = status;
  response.setHeader('content-type', 'application/xml; charset=utf-8');
  response.end(`<Error><Code>${status}</Code><Detail>${detail.replace(/[<&>]/g, '')}</Detail></Error>`);
}
