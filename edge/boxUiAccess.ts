import { createHash, randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { verifyPassword, type PasswordHash } from './boxUiCredential';

/** Cookie of a signed-in browser: HttpOnly, SameSite=Strict, never readable by page scripts. */
export const SESSION_COOKIE = 'box_ui_session';
export const SESSION_SECONDS = 12 * 3600;
/** Most signed-in browsers at once; a new sign-in drops the oldest. */
export const MAX_SESSIONS = 32;
/** Wrong passwords a peer may send per window before it is refused until the window ends. */
export const MAX_FAILURES = 5;
export const FAILURE_WINDOW_SECONDS = 60;
/** Peers whose failures are remembered; beyond that the oldest is forgotten (bounded memory). */
const MAX_TRACKED_PEERS = 1024;

export const HOW_TO_SET =
  'Set SVC_BOX_UI_PASSWORD_HASH in the .env beside the agent: `node edge-agent.js hash-password` prints it (docs/box-connector.md).';

export interface RequestFacts {
  method: string;
  headers: IncomingHttpHeaders;
  /** The peer's address, for the wrong-password limit. */
  peer: string;
}

export type Refusal = { status: number; body: unknown; headers?: Record<string, string> };
export type Decision = { ok: true } | { ok: false; refusal: Refusal };

export interface BoxAccess {
  /** Whether a UI password is set. */
  readonly configured: boolean;
  /** Decides a request to a protected route: the password (session cookie or HTTP Basic) and, for changes, the same origin. */
  authorize(request: RequestFacts): Promise<Decision>;
  /** Checks a sign-in; on success the Set-Cookie header of a new session. */
  signIn(password: unknown, request: RequestFacts): Promise<{ ok: true; cookie: string } | { ok: false; refusal: Refusal }>;
  /** Ends the request's session; the Set-Cookie header that clears it. */
  signOut(request: RequestFacts): string;
  /** Checks an unsafe request's origin against its host (the UI's sign-in and changes). */
  sameOrigin(request: RequestFacts): boolean;
}

/**
 * Who may use the box interface. With a password set, every protected route needs it, from any
 * address. Without one, the protected routes stay reachable only when the interface listens on
 * loopback (as before the UI existed); on any other address they are refused, so setting
 * SVC_EDGE_HOST never opens the consent switch to the club network.
 */
export function createBoxAccess(options: { hash: PasswordHash | undefined; loopbackOnly: boolean; now?: () => number }): BoxAccess {
  const now = options.now ?? Date.now;
  const sessions = new Map<string, number>();
  const failures = new Map<string, { count: number; until: number }>();

  const refusal = (status: number, title: string, detail: string, headers?: Record<string, string>): Refusal => ({
    status,
    body: { type: 'about:blank', title, status, detail },
    headers: { 'content-type': 'application/problem+json', ...headers },
  });

  function throttled(peer: string): Refusal | undefined {
    const entry = failures.get(peer);
    if (!entry || entry.until <= now()) return undefined;
    if (entry.count < MAX_FAILURES) return undefined;
    const seconds = Math.max(1, Math.ceil((entry.until - now()) / 1000));
    return refusal(429, 'Too many wrong passwords', `Try again in ${seconds} s.`, { 'retry-after': String(seconds) });
  }

  function recordFailure(peer: string): void {
    const entry = failures.get(peer);
    if (entry && entry.until > now()) {
      entry.count += 1;
      return;
    }
    failures.delete(peer);
    if (failures.size >= MAX_TRACKED_PEERS) failures.delete(failures.keys().next().value as string);
    failures.set(peer, { count: 1, until: now() + FAILURE_WINDOW_SECONDS * 1000 });
  }

  async function checkPassword(password: string, peer: string): Promise<Refusal | undefined> {
    const limited = throttled(peer);
    if (limited) return limited;
    if (options.hash && (await verifyPassword(options.hash, password))) return undefined;
    recordFailure(peer);
    return throttled(peer) ?? refusal(401, 'Wrong password', 'The password is not the one set on this box.');
  }

  function sessionOf(headers: IncomingHttpHeaders): string | undefined {
    const token = cookieValue(headers.cookie, SESSION_COOKIE);
    if (!token) return undefined;
    const key = digest(token);
    const expires = sessions.get(key);
    if (expires === undefined) return undefined;
    if (expires <= now()) {
      sessions.delete(key);
      return undefined;
    }
    return key;
  }

  function sameOrigin(request: RequestFacts): boolean {
    const origin = request.headers.origin;
    const site = request.headers['sec-fetch-site'];
    if (site !== undefined && site !== 'same-origin' && site !== 'none') return false;
    if (origin === undefined) return true;
    return origin === `http://${request.headers.host ?? ''}`;
  }

  const unsafe = (method: string) => !['GET', 'HEAD'].includes(method.toUpperCase());

  return {
    configured: options.hash !== undefined,
    sameOrigin,
    async authorize(request) {
      if (!options.hash) {
        if (options.loopbackOnly) return { ok: true };
        return { ok: false, refusal: refusal(403, 'No box UI password set', `The box interface listens beyond loopback. ${HOW_TO_SET}`) };
      }
      if (unsafe(request.method) && !sameOrigin(request)) {
        return { ok: false, refusal: refusal(403, 'Cross-site request refused', 'Changes are accepted only from the box UI itself.') };
      }
      if (sessionOf(request.headers)) {
        // A browser's change must say where it comes from: the cookie alone never suffices.
        if (unsafe(request.method) && request.headers.origin === undefined) {
          return { ok: false, refusal: refusal(403, 'Cross-site request refused', 'A change from a browser must carry its Origin.') };
        }
        return { ok: true };
      }
      const basic = basicPassword(request.headers.authorization);
      if (basic === undefined)
        return { ok: false, refusal: refusal(401, 'Sign-in required', 'Sign in at /ui or send the password with HTTP Basic.') };
      const refused = await checkPassword(basic, request.peer);
      return refused ? { ok: false, refusal: refused } : { ok: true };
    },
    async signIn(password, request) {
      if (!options.hash) return { ok: false, refusal: refusal(503, 'No box UI password set', HOW_TO_SET) };
      if (!sameOrigin(request) || request.headers.origin === undefined) {
        return { ok: false, refusal: refusal(403, 'Cross-site request refused', 'Sign in from the box UI itself.') };
      }
      if (typeof password !== 'string') return { ok: false, refusal: refusal(400, 'Bad request', 'body.password must be text.') };
      const refused = await checkPassword(password, request.peer);
      if (refused) return { ok: false, refusal: refused };
      failures.delete(request.peer);
      const token = randomBytes(32).toString('base64url');
      if (sessions.size >= MAX_SESSIONS) sessions.delete(sessions.keys().next().value as string);
      sessions.set(digest(token), now() + SESSION_SECONDS * 1000);
      return { ok: true, cookie: `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${SESSION_SECONDS}` };
    },
    signOut(request) {
      const key = sessionOf(request.headers);
      if (key) sessions.delete(key);
      return `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0`;
    },
  };
}

/** Whether a listen address reaches only this machine. */
export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

function digest(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

/** The password of an HTTP Basic header (the user name is not used). */
function basicPassword(header: string | undefined): string | undefined {
  const match = /^Basic ([A-Za-z0-9+/=]{1,2000})$/i.exec(header?.trim() ?? '');
  if (!match) return undefined;
  const decoded = Buffer.from(match[1] ?? '', 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon === -1 ? undefined : decoded.slice(colon + 1);
}
