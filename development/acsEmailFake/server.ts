import { createHash, createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for the Azure Communication Services Email REST API (api-version 2025-09-01), so
 * that @azure/communication-email runs unchanged against it: `POST /emails:send` answers 202 with
 * `Operation-Location` and `Retry-After`, `GET /emails/operations/{id}` answers the long-running
 * operation's status, every request must carry a valid HMAC-SHA256 signature made with the
 * connection string's access key, and errors are `{ error: { code, message } }` with
 * `x-ms-error-code`. Over plain HTTP on 127.0.0.1 (the SDK accepts that with
 * `allowInsecureConnection`); with `tls` over HTTPS, and with `verifyBearer` it also takes the
 * Entra ID tokens a managed identity gets (`Authorization: Bearer`), as the deployed app sends.
 *
 * The service's rule for a repeated `Operation-Id` is not documented; this fake answers the
 * existing operation and does not send the email again, which is what the delivery worker relies
 * on after a crash between "sent" and "recorded" (docs/notifications.md).
 *
 * Not part of the API, for people and tests: `GET /emails` lists the emails "sent", newest last,
 * and `DELETE /emails` forgets them. A recipient address starting with `drop.` makes the
 * operation end `Failed` (EmailDropped), one starting with `reject.` gets a 400
 * InvalidEmailAddress, as the service does for addresses it refuses. `throttleNextSends(n,
 * retryAfter)`, or `POST /emails:throttle?count=n&retryAfter=s` (no signature), answers the next n
 * sends 429 TooManyRequests with that `Retry-After` (seconds or an HTTP-date), as the service does
 * past the sending tier's per-minute or per-hour limit; nothing is sent for them.
 */

export const ACS_EMAIL_API_VERSION = '2025-09-01';

export interface SentEmail {
  operationId: string;
  receivedAt: string;
  senderAddress: string;
  to: string[];
  subject: string;
  plainText?: string;
  html?: string;
  headers: Record<string, string>;
}

export interface FakeAcsEmail {
  endpoint: string;
  /** `endpoint=...;accesskey=...` for EmailClient. */
  connectionString: string;
  emails: SentEmail[];
  /** Requests of each kind received, for assertions on retries and polling. */
  requests: { sends: number; polls: number; unauthorized: number; throttled: number };
  /** Answer the next `count` sends 429 TooManyRequests with this Retry-After (default 60 seconds). */
  throttleNextSends(count: number, retryAfter?: string): void;
  close(): Promise<void>;
}

interface Operation {
  id: string;
  status: 'Running' | 'Succeeded' | 'Failed';
  error: { code: string; message: string } | null;
  pollsLeft: number;
}

export interface FakeAcsEmailOptions {
  port?: number;
  accessKey?: string;
  /** Polls answered `Running` before an operation ends. */
  runningPolls?: number;
  /** Emails kept for GET /emails; older ones are forgotten. */
  keep?: number;
  /** Serve HTTPS with this certificate (the process using it trusts it through NODE_EXTRA_CA_CERTS). */
  tls?: { cert: string; key: string };
  /** Accept `Authorization: Bearer <token>` when this says the token is good (an identity endpoint's verify). */
  verifyBearer?: (token: string) => Promise<boolean>;
}

export async function startFakeAcsEmail(options: FakeAcsEmailOptions = {}): Promise<FakeAcsEmail> {
  const accessKey = options.accessKey ?? Buffer.from(randomUUID()).toString('base64');
  const operations = new Map<string, Operation>();
  const emails: SentEmail[] = [];
  const requests = { sends: 0, polls: 0, unauthorized: 0, throttled: 0 };
  const throttles: string[] = [];
  const keep = options.keep ?? 1000;
  let base = '';

  const handler = (request: IncomingMessage, response: ServerResponse) => {
    void readBody(request)
      .then(async (body) => {
        if (request.method === 'GET' && request.url === '/emails') return send(response, 200, { value: emails });
        if (request.method === 'DELETE' && request.url === '/emails') {
          emails.length = 0;
          return send(response, 204);
        }
        const throttle = /^\/emails:throttle\?(.*)$/.exec(request.url ?? '');
        if (request.method === 'POST' && throttle) {
          const query = new URLSearchParams(throttle[1]);
          throttleNextSends(Number(query.get('count') ?? '1'), query.get('retryAfter') ?? undefined);
          return send(response, 204);
        }
        if (!signatureValid(request, body, accessKey) && !(await bearerValid(request, options.verifyBearer))) {
          requests.unauthorized++;
          return fail(response, 401, 'Denied', 'Denied by the resource provider.');
        }
        const url = new URL(request.url ?? '/', base);
        if (url.searchParams.get('api-version') !== ACS_EMAIL_API_VERSION) {
          return fail(
            response,
            400,
            'UnsupportedApiVersion',
            `The HTTP resource does not support api-version ${url.searchParams.get('api-version')}.`,
          );
        }
        if (request.method === 'POST' && url.pathname === '/emails:send') return accept(request, response, body);
        const poll = /^\/emails\/operations\/([^/]+)$/.exec(url.pathname);
        if (request.method === 'GET' && poll?.[1]) return status(response, decodeURIComponent(poll[1]));
        return fail(response, 404, 'NotFound', 'Resource not found.');
      })
      .catch(() => fail(response, 500, 'InternalServerError', 'The fake could not answer.'));
  };
  const server = options.tls ? https.createServer({ cert: options.tls.cert, key: options.tls.key }, handler) : http.createServer(handler);

  function accept(request: IncomingMessage, response: ServerResponse, body: string): void {
    requests.sends++;
    const retryAfter = throttles.shift();
    if (retryAfter !== undefined) {
      requests.throttled++;
      response.setHeader('Retry-After', retryAfter);
      return fail(response, 429, 'TooManyRequests', 'The request was throttled: too many emails for the sending tier. Retry later.');
    }
    const message = parseMessage(body);
    if (typeof message === 'string') return fail(response, 400, 'BadRequest', `Request body validation error. See property '${message}'.`);
    const headerId = request.headers['operation-id'];
    const id = typeof headerId === 'string' && headerId ? headerId : randomUUID();
    if (message.to.some((address) => address.startsWith('reject.'))) {
      return fail(response, 400, 'InvalidEmailAddress', 'The email address is not valid.');
    }
    if (!operations.has(id)) {
      const dropped = message.to.some((address) => address.startsWith('drop.'));
      operations.set(id, {
        id,
        status: 'Running',
        error: dropped ? { code: 'EmailDropped', message: 'Email was dropped after several attempts to deliver.' } : null,
        pollsLeft: options.runningPolls ?? 1,
      });
      if (!dropped) {
        emails.push({ operationId: id, receivedAt: new Date().toISOString(), ...message });
        if (emails.length > keep) emails.splice(0, emails.length - keep);
      }
    }
    response.setHeader('Operation-Location', `${base}/emails/operations/${id}?api-version=${ACS_EMAIL_API_VERSION}`);
    response.setHeader('Retry-After', '0');
    send(response, 202, { id, status: 'Running', error: null });
  }

  function status(response: ServerResponse, id: string): void {
    requests.polls++;
    const operation = operations.get(id);
    if (!operation) return fail(response, 404, 'NotFound', 'The operation was not found.');
    if (operation.status === 'Running' && operation.pollsLeft-- <= 0) operation.status = operation.error ? 'Failed' : 'Succeeded';
    if (operation.status === 'Running') response.setHeader('Retry-After', '0');
    send(response, 200, { id: operation.id, status: operation.status, error: operation.status === 'Failed' ? operation.error : null });
  }

  function throttleNextSends(count: number, retryAfter = '60'): void {
    for (let index = 0; index < Math.min(count, 10_000); index++) throttles.push(retryAfter);
  }

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  base = `${options.tls ? 'https' : 'http'}://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    endpoint: base,
    connectionString: `endpoint=${base}/;accesskey=${accessKey}`,
    emails,
    requests,
    throttleNextSends,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        // A client's keep-alive sockets (the SDK's) would hold the close open.
        server.closeAllConnections();
      }),
  };
}

/** The SDK's EmailMessage, checked as the service does; a string names the failing property. */
function parseMessage(body: string): Omit<SentEmail, 'operationId' | 'receivedAt'> | string {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return 'body';
  }
  const message = value as {
    senderAddress?: unknown;
    content?: { subject?: unknown; plainText?: unknown; html?: unknown };
    recipients?: { to?: { address?: unknown }[] };
    headers?: Record<string, string>;
  };
  if (typeof message.senderAddress !== 'string' || !/^[^\s<>"]+@[^\s<>"]+$/.test(message.senderAddress)) return 'senderAddress';
  if (typeof message.content?.subject !== 'string') return 'content.subject';
  const to = message.recipients?.to;
  if (!Array.isArray(to) || to.length === 0 || to.some((recipient) => typeof recipient.address !== 'string')) return 'recipients.to';
  return {
    senderAddress: message.senderAddress,
    to: to.map((recipient) => String(recipient.address)),
    subject: message.content.subject,
    plainText: typeof message.content.plainText === 'string' ? message.content.plainText : undefined,
    html: typeof message.content.html === 'string' ? message.content.html : undefined,
    headers: message.headers ?? {},
  };
}

/** The HMAC-SHA256 scheme of Communication Services (x-ms-date;host;x-ms-content-sha256). */
async function bearerValid(request: IncomingMessage, verify: FakeAcsEmailOptions['verifyBearer']): Promise<boolean> {
  const token = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1];
  return Boolean(verify && token && (await verify(token)));
}

function signatureValid(request: IncomingMessage, body: string, accessKey: string): boolean {
  const date = request.headers['x-ms-date'];
  const hash = request.headers['x-ms-content-sha256'];
  const authorization = request.headers.authorization;
  if (typeof date !== 'string' || typeof hash !== 'string' || typeof authorization !== 'string') return false;
  if (createHash('sha256').update(body).digest('base64') !== hash) return false;
  const url = new URL(request.url ?? '/', 'http://fake');
  const pathAndQuery = `${url.pathname}?${new URLSearchParams(url.search).toString()}`;
  const toSign = `${request.method}\n${pathAndQuery}\n${date};${request.headers.host};${hash}`;
  const expected = createHmac('sha256', Buffer.from(accessKey, 'base64')).update(toSign).digest('base64');
  const given = /Signature=(.+)$/.exec(authorization)?.[1] ?? '';
  return given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected));
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      // The service's limit is 10 MB per request.
      if (size > 10 * 1024 * 1024) request.destroy(new Error('too large'));
      else chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function send(response: ServerResponse, statusCode: number, body?: unknown): void {
  response.statusCode = statusCode;
  if (body === undefined) return void response.end();
  response.setHeader('content-type', 'application/json');
  response.end(JSON.stringify(body));
}

function fail(response: ServerResponse, statusCode: number, code: string, message: string): void {
  response.setHeader('x-ms-error-code', code);
  send(response, statusCode, { error: { code, message } });
}
