import { createECDH, randomBytes, randomUUID, type ECDH } from 'node:crypto';
import https from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { decrypt } from 'http_ece';
import { decodeProtectedHeader, importJWK, jwtVerify } from 'jose';
import { listenLocally, readBody, sendJson } from './fakeHttp';

/**
 * A browser's push service (RFC 8030) for local use and tests, with the browser's side of the
 * subscription: `subscribe(applicationServerKey)` makes a P-256 key pair and auth secret as
 * `pushManager.subscribe` does and answers the `PushSubscription.toJSON()` a member app posts to
 * /api/user/push-registrations. A push to the subscription's endpoint is then checked as a push
 * service checks it and decrypted as the browser decrypts it:
 *
 * - `TTL` is required (400 without, RFC 8030 §5.2); `Urgency` and `Topic` must be valid (400);
 * - `Authorization: vapid t=<JWT>, k=<key>` (RFC 8292): an ES256 JWT signed by `k`, `aud` the
 *   endpoint's origin, `exp` within 24 hours, `sub` a mailto: or https: contact; `k` must be the
 *   key the subscription was made with (403 otherwise, 401 for a missing or bad token);
 * - `Content-Encoding: aes128gcm` (RFC 8291), decrypted with the subscription's private key;
 *   a body that does not decrypt gets 400, one above 4096 bytes 413;
 * - a subscription the user withdrew answers 410, an expired one 404 (what the sender must
 *   treat as "remove the registration"); accepted pushes get 201 with `Location`.
 *
 * Over HTTPS (web-push always uses https), with a local certificate the sender trusts through
 * NODE_EXTRA_CA_CERTS. Not part of the protocol: `POST /_fake/subscriptions` (body
 * `{ "applicationServerKey": … }`) subscribes, `GET /_fake/pushes` lists the decrypted pushes,
 * `DELETE /_fake/pushes` forgets them, `POST /_fake/subscriptions/{id}/gone|expired` withdraws one,
 * `POST /_fake/throttle?count=n&retryAfter=s` (or `throttleNext`) answers the next n pushes 429
 * Too Many Requests with that `Retry-After` (RFC 8030 §8.4: a push service may throttle a sender).
 */
export interface BrowserSubscription {
  endpoint: string;
  expirationTime: null;
  keys: { p256dh: string; auth: string };
}

export interface ReceivedWebPush {
  receivedAt: string;
  subscriptionId: string;
  /** The decrypted payload, parsed when it is JSON. */
  payload: unknown;
  ttl: number;
  urgency: string;
  topic: string | undefined;
  /** The VAPID JWT's claims. */
  vapid: { aud: string; sub: string; exp: number };
}

export interface FakeWebPush {
  origin: string;
  subscribe(applicationServerKey: string): BrowserSubscription;
  /** The subscription now answers 410 (withdrawn) or 404 (expired). */
  withdraw(endpoint: string, how: 'gone' | 'expired'): void;
  pushes: ReceivedWebPush[];
  /** Pushes accepted (201) since the start, however many `keep` retains. */
  readonly accepted: number;
  /** Requests refused, by status. */
  refused: Record<number, number>;
  /** Answer the next `count` pushes 429 with this Retry-After (seconds or an HTTP-date; default 60). */
  throttleNext(count: number, retryAfter?: string): void;
  close(): Promise<void>;
}

interface Subscription {
  id: string;
  ecdh: ECDH;
  auth: Buffer;
  applicationServerKey: string;
  state: 'active' | 'gone' | 'expired';
}

const MAX_RECORD = 4096;

export async function startFakeWebPush(options: {
  tls: { cert: string; key: string };
  port?: number;
  keep?: number;
}): Promise<FakeWebPush> {
  const subscriptions = new Map<string, Subscription>();
  const pushes: ReceivedWebPush[] = [];
  const refused: Record<number, number> = {};
  const throttles: string[] = [];
  const keep = options.keep ?? 1000;
  let accepted = 0;
  // Tokens already verified, by key and token: senders reuse one token per push service for hours
  // (RFC 8292 §2), and a push service need not check the same signature again. The expiry is.
  const verified = new Map<string, ReceivedWebPush['vapid']>();
  let origin = '';

  const server = https.createServer({ cert: options.tls.cert, key: options.tls.key }, (request, response) => {
    void readBody(request, MAX_RECORD + 1024)
      .then((body) => handle(request, response, body))
      .catch(() => refuse(response, 500, 'the fake could not answer'));
  });

  async function handle(request: IncomingMessage, response: ServerResponse, body: Buffer): Promise<void> {
    const url = new URL(request.url ?? '/', origin);
    if (url.pathname.startsWith('/_fake/')) return control(request, response, url, body);
    const id = /^\/push\/([A-Za-z0-9-]+)$/.exec(url.pathname)?.[1];
    const subscription = id ? subscriptions.get(id) : undefined;
    if (request.method !== 'POST' || !subscription) return refuse(response, 404, 'no such subscription');
    const retryAfter = throttles.shift();
    if (retryAfter !== undefined) return refuse(response, 429, 'Too Many Requests', { 'Retry-After': retryAfter });
    const ttl = request.headers['ttl'];
    if (typeof ttl !== 'string' || !/^\d+$/.test(ttl)) return refuse(response, 400, 'TTL header missing or invalid');
    const urgency = request.headers['urgency'] ?? 'normal';
    if (typeof urgency !== 'string' || !['very-low', 'low', 'normal', 'high'].includes(urgency))
      return refuse(response, 400, 'invalid Urgency');
    const topic = request.headers['topic'];
    if (topic !== undefined && (typeof topic !== 'string' || !/^[A-Za-z0-9_-]{1,32}$/.test(topic)))
      return refuse(response, 400, 'invalid Topic');
    const vapid = await verifyVapid(request.headers.authorization, subscription);
    if (typeof vapid === 'number') return refuse(response, vapid, 'VAPID authorization refused');
    if (subscription.state === 'gone') return refuse(response, 410, 'push subscription has unsubscribed or expired');
    if (subscription.state === 'expired') return refuse(response, 404, 'push subscription expired');
    if (request.headers['content-encoding'] !== 'aes128gcm') return refuse(response, 415, 'Content-Encoding must be aes128gcm');
    if (body.length > MAX_RECORD) return refuse(response, 413, 'payload too large');
    let plain: Buffer;
    try {
      plain = decrypt(body, { version: 'aes128gcm', privateKey: subscription.ecdh, authSecret: subscription.auth });
    } catch {
      return refuse(response, 400, 'the payload does not decrypt with the subscription keys');
    }
    const text = plain.toString('utf8');
    let payload: unknown = text;
    try {
      payload = JSON.parse(text);
    } catch {
      // A push may carry any text; kept as sent.
    }
    pushes.push({
      receivedAt: new Date().toISOString(),
      subscriptionId: subscription.id,
      payload,
      ttl: Number(ttl),
      urgency,
      topic,
      vapid,
    });
    if (pushes.length > keep) pushes.splice(0, pushes.length - keep);
    accepted++;
    sendJson(response, 201, undefined, { Location: `${origin}/message/${randomUUID()}` });
  }

  async function verifyVapid(header: string | undefined, subscription: Subscription): Promise<ReceivedWebPush['vapid'] | number> {
    const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? '');
    if (!match?.[1] || !match[2]) return 401;
    const [, token, key] = match;
    if (key !== subscription.applicationServerKey) return 403;
    const known = verified.get(`${key} ${token}`);
    if (known) return known.exp > Date.now() / 1000 ? known : 401;
    try {
      if (decodeProtectedHeader(token).alg !== 'ES256') return 401;
      const point = Buffer.from(key, 'base64url');
      const publicKey = await importJWK(
        { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33, 65).toString('base64url') },
        'ES256',
      );
      const { payload } = await jwtVerify(token, publicKey, { audience: origin, algorithms: ['ES256'] });
      const exp = payload.exp ?? 0;
      const sub = typeof payload.sub === 'string' ? payload.sub : '';
      if (exp > Date.now() / 1000 + 24 * 3600 || !/^(mailto:|https:)/.test(sub)) return 401;
      if (verified.size >= 1000) verified.clear();
      verified.set(`${key} ${token}`, { aud: origin, sub, exp });
      return { aud: origin, sub, exp };
    } catch {
      return 401;
    }
  }

  function subscribe(applicationServerKey: string): BrowserSubscription {
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    const subscription: Subscription = { id: randomUUID(), ecdh, auth: randomBytes(16), applicationServerKey, state: 'active' };
    subscriptions.set(subscription.id, subscription);
    return {
      endpoint: `${origin}/push/${subscription.id}`,
      expirationTime: null,
      keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: subscription.auth.toString('base64url') },
    };
  }

  function control(request: IncomingMessage, response: ServerResponse, url: URL, body: Buffer): void {
    if (request.method === 'GET' && url.pathname === '/_fake/pushes') return sendJson(response, 200, { value: pushes });
    if (request.method === 'DELETE' && url.pathname === '/_fake/pushes') {
      pushes.length = 0;
      return sendJson(response, 204);
    }
    if (request.method === 'POST' && url.pathname === '/_fake/subscriptions') {
      const key = (JSON.parse(body.toString('utf8') || '{}') as { applicationServerKey?: unknown }).applicationServerKey;
      if (typeof key !== 'string') return sendJson(response, 400, { error: 'applicationServerKey is required' });
      return sendJson(response, 201, subscribe(key));
    }
    if (request.method === 'POST' && url.pathname === '/_fake/throttle') {
      throttleNext(Number(url.searchParams.get('count') ?? '1'), url.searchParams.get('retryAfter') ?? undefined);
      return sendJson(response, 204);
    }
    const withdraw = /^\/_fake\/subscriptions\/([A-Za-z0-9-]+)\/(gone|expired)$/.exec(url.pathname);
    const subscription = withdraw?.[1] ? subscriptions.get(withdraw[1]) : undefined;
    if (request.method === 'POST' && subscription) {
      subscription.state = withdraw?.[2] === 'gone' ? 'gone' : 'expired';
      return sendJson(response, 204);
    }
    return sendJson(response, 404, { error: 'unknown fake control' });
  }

  function throttleNext(count: number, retryAfter = '60'): void {
    for (let index = 0; index < Math.min(count, 10_000); index++) throttles.push(retryAfter);
  }

  function refuse(response: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
    refused[status] = (refused[status] ?? 0) + 1;
    response.statusCode = status;
    for (const [name, value] of Object.entries(headers)) response.setHeader(name, value);
    response.setHeader('content-type', 'text/plain');
    response.end(message);
  }

  const { port, close } = await listenLocally(server, options.port);
  origin = `https://127.0.0.1:${port}`;
  return {
    get origin() {
      return origin;
    },
    subscribe,
    withdraw(endpoint, how) {
      const subscription = subscriptions.get(endpoint.split('/').pop() ?? '');
      if (subscription) subscription.state = how;
    },
    pushes,
    get accepted() {
      return accepted;
    },
    refused,
    throttleNext,
    close,
  };
}
