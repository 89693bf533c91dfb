import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../shared/log/logger';
import type { Agent } from './agent';
import type { BoxAnswer, BoxRoute } from './boxRoute';
import { pushRoutes } from './pushRoutes';
import { createBoxAccess, isLoopbackHost, type BoxAccess, type RequestFacts } from './boxUiAccess';

export const RUN_PATH = '/api/club-master-sync/run';
export const STATUS_PATH = '/api/club-master-sync/status';

/** Largest request body the box interface reads (the consent body is a few hundred bytes). */
export const MAX_BODY_BYTES = 16 * 1024;

export type { BoxAnswer, BoxRoute } from './boxRoute';

export interface AgentServer {
  url: string;
  close(): Promise<void>;
}

/**
 * The box interface: POST /api/club-master-sync/run runs one sync and answers with its outcome
 * (200 done, 409 push disabled, 502 the run failed; the body carries the reason);
 * GET /api/club-master-sync/status answers the agent's status. JSON only.
 */
export async function startAgentServer(
  agent: Agent,
  options: { host: string; port: number; log: Logger; routes?: Record<string, BoxRoute>; access?: BoxAccess },
): Promise<AgentServer> {
  const access = options.access ?? createBoxAccess({ hash: undefined, loopbackOnly: isLoopbackHost(options.host) });
  const routes: Record<string, BoxRoute> = {
    ...options.routes,
    ...pushRoutes(agent, { run: RUN_PATH, status: STATUS_PATH }, 'sync_disabled'),
  };

  const server = http.createServer((req, res) => {
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers });
      res.end(JSON.stringify(body));
    };
    const path = requestPath(req.url);
    if (path === undefined) return drain(() => send(400, { error: 'bad_request', message: 'The request target must be a path.' }));
    const route = routes[path];
    if (!route) return drain(() => send(404, { error: 'not_found', message: `No endpoint at ${path || '/'}.` }));
    if ((req.method ?? 'GET').toUpperCase() !== route.method) {
      return drain(() => send(405, { error: 'method_not_allowed', message: `Use ${route.method}.` }, { allow: route.method }));
    }
    /** Reads the body to its end (so keep-alive connections stay usable) before answering. */
    function drain(answer: () => void): void {
      req.resume();
      req.once('end', answer);
    }
    const facts: RequestFacts = { method: req.method ?? 'GET', headers: req.headers, peer: req.socket.remoteAddress ?? 'unknown' };
    const reply = (answer: BoxAnswer) => {
      if (answer.text === undefined) return send(answer.status, answer.body, answer.headers);
      res.writeHead(answer.status, { 'cache-control': 'no-store', ...answer.headers });
      res.end(answer.text);
    };
    const answer = async (body: unknown) => {
      try {
        if (!route.public) {
          const decision = await access.authorize(facts);
          if (!decision.ok) return send(decision.refusal.status, decision.refusal.body, decision.refusal.headers);
        }
        reply(await route.handle({ body, facts }));
      } catch (error) {
        options.log.error('edge_request_failed', { path, error });
        send(500, { error: 'internal_error', message: 'The agent failed to answer.' });
      }
    };
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) tooLarge = true;
      else chunks.push(chunk);
    });
    req.once('end', () => {
      if (tooLarge) return send(413, { error: 'too_large', message: `The body may be at most ${MAX_BODY_BYTES} bytes.` });
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = undefined;
      if (text.trim() !== '') {
        try {
          body = JSON.parse(text);
        } catch {
          return send(400, { error: 'bad_request', message: 'The body is not JSON.' });
        }
      }
      void answer(body);
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://${options.host}:${address.port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * The path of an origin-form request target (`/api/...?query`), without trailing slashes; undefined
 * for any other form. Not parsed with `new URL`: it throws on targets such as `//[`, and inside
 * the request listener that would be an uncaught exception that ends the agent; it also reads
 * `//host/path` as a host.
 */
export function requestPath(target: string | undefined): string | undefined {
  if (!target?.startsWith('/')) return undefined;
  const end = target.search(/[?#]/);
  return (end === -1 ? target : target.slice(0, end)).replace(/\/+$/, '');
}
