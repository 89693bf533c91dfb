import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A wire-level fake of the Kafka Connect REST API (one standalone worker) for the box agent's
 * tests and for `npm run edge -- --fake-kafka-connect` (docs/box-connector.md). Status codes and bodies follow Kafka Connect 3.7+ (ConnectorsResource, the herders and
 * the REST error mapper): errors are `{"error_code":<status>,"message":"..."}`, PUT config answers
 * 201 when it creates and 200 when it updates, POST /connectors 201 or 409 when the name exists,
 * pause/resume 202 without a body, stop and DELETE 204, DELETE offsets 200 with a message or 400
 * unless the connector is STOPPED, GET status 404 "No status found for connector x".
 *
 * Behind it sits a small model of what a Debezium source connector publishes, so a test can see
 * what left the club: `change()` writes a row of the mirror's `hits` or `shooters`; a RUNNING
 * connector publishes it at once, a paused, stopped or absent one does not. A connector that
 * runs without a stored offset first snapshots every row (op `r`), as snapshot.mode=initial does;
 * offsets outlive a DELETE (as in Kafka Connect's offsets topic) until DELETE .../offsets.
 */

export interface PublishedRecord {
  connector: string;
  table: string;
  id: string;
  op: 'r' | 'c' | 'u' | 'd';
}

interface Connector {
  name: string;
  config: Record<string, string>;
  target: 'STARTED' | 'PAUSED' | 'STOPPED';
}

interface Fault {
  method?: string;
  path?: RegExp;
  status: number;
  message: string;
  times: number;
}

export interface KafkaConnectFake {
  url: string;
  /** A row change in the mirror database (Debezium reads it from the WAL). */
  change(table: 'hits' | 'shooters', id: string, op?: 'c' | 'u' | 'd'): void;
  /** What the connectors published, in order. */
  published(): PublishedRecord[];
  /** Every request answered, as `METHOD /path status`. */
  requests(): string[];
  /** The next `times` matching requests answer `status` with Kafka Connect's error body. */
  failNext(fault: { method?: string; path?: RegExp; status: number; message?: string; times?: number }): void;
  /** The next `times` mutating requests answer 409 as during a rebalance. */
  rebalance(times: number): void;
  /** A connector's state as the herder holds it (for assertions), or undefined. */
  connector(name: string): { config: Record<string, string>; target: string; hasOffset: boolean } | undefined;
  /** Puts a connector in place directly (as if created by hand before the agent ran). */
  seed(name: string, config: Record<string, string>, target?: 'STARTED' | 'PAUSED'): void;
  close(): Promise<void>;
}

const WORKER_ID = '127.0.0.1:8083';
export const REBALANCE_MESSAGE =
  'Cannot complete request momentarily due to stale configuration (typically caused by a concurrent config change)';
const OFFSETS_RESET_MESSAGE =
  'The Connect framework-managed offsets for this connector have been reset successfully. However, if this connector manages offsets externally, they will need to be manually reset in the system that the connector uses.';

export async function startKafkaConnectFake(options: { port?: number } = {}): Promise<KafkaConnectFake> {
  const connectors = new Map<string, Connector>();
  /** Offsets by connector name: the WAL position published up to; kept after a DELETE. */
  const offsets = new Map<string, number>();
  const rows = new Map<string, { table: string; id: string }>();
  const wal: { lsn: number; table: string; id: string; op: 'c' | 'u' | 'd' }[] = [];
  const published: PublishedRecord[] = [];
  const log: string[] = [];
  const faults: Fault[] = [];

  const tablesOf = (connector: Connector) =>
    (connector.config['table.include.list'] ?? '')
      .split(',')
      .map((table) => table.trim().replace(/^public\./, ''))
      .filter(Boolean);

  /** Lets every running connector publish what it has not published yet. */
  function pump(): void {
    const head = wal.length;
    for (const connector of connectors.values()) {
      if (connector.target !== 'STARTED') continue;
      const tables = tablesOf(connector);
      let offset = offsets.get(connector.name);
      if (offset === undefined) {
        for (const row of rows.values())
          if (tables.includes(row.table)) published.push({ connector: connector.name, table: row.table, id: row.id, op: 'r' });
        offset = head;
      }
      for (const entry of wal.slice(offset)) {
        if (tables.includes(entry.table)) published.push({ connector: connector.name, table: entry.table, id: entry.id, op: entry.op });
      }
      offsets.set(connector.name, head);
    }
  }

  const info = (connector: Connector) => ({
    name: connector.name,
    config: { ...connector.config, name: connector.name },
    tasks: connector.target === 'STOPPED' ? [] : [{ connector: connector.name, task: 0 }],
    type: 'source',
  });

  function statusOf(connector: Connector) {
    const state = connector.target === 'STARTED' ? 'RUNNING' : connector.target;
    return {
      name: connector.name,
      connector: { state, worker_id: WORKER_ID },
      tasks: connector.target === 'STOPPED' ? [] : [{ id: 0, state, worker_id: WORKER_ID }],
      type: 'source',
    };
  }

  type Reply = { status: number; body?: unknown };
  const error = (status: number, message: string): Reply => ({ status, body: { error_code: status, message } });

  function validConfig(config: unknown): config is Record<string, string> {
    return (
      typeof config === 'object' &&
      config !== null &&
      !Array.isArray(config) &&
      Object.values(config).every((value) => typeof value === 'string')
    );
  }

  function route(method: string, path: string, body: unknown): Reply {
    if (path === '/' && method === 'GET')
      return { status: 200, body: { version: '3.7.0', commit: 'fake', kafka_cluster_id: 'fake-cluster' } };
    if (path === '/connectors' || path === '/connectors/') {
      if (method === 'GET') return { status: 200, body: [...connectors.keys()] };
      if (method !== 'POST') return error(405, 'HTTP 405 Method Not Allowed');
      const request = body as { name?: unknown; config?: unknown; initial_state?: unknown } | undefined;
      const name = typeof request?.name === 'string' ? request.name.trim() : '';
      if (!name || !validConfig(request?.config)) return error(400, 'Connector config is missing or invalid');
      if (connectors.has(name)) return error(409, `Connector ${name} already exists`);
      const initial = request?.initial_state ?? 'RUNNING';
      if (initial !== 'RUNNING' && initial !== 'PAUSED' && initial !== 'STOPPED')
        return error(400, `Invalid initial state ${JSON.stringify(initial)}`);
      const connector: Connector = { name, config: { ...request.config }, target: initial === 'RUNNING' ? 'STARTED' : initial };
      connectors.set(name, connector);
      pump();
      return { status: 201, body: info(connector) };
    }
    const match = /^\/connectors\/([^/]+)(\/[a-z]+)?$/.exec(path);
    if (!match) return error(404, 'HTTP 404 Not Found');
    const name = decodeURIComponent(match[1] ?? '');
    const action = match[2] ?? '';
    const connector = connectors.get(name);
    const notFound = error(404, `Connector ${name} not found`);
    const key = `${method} ${action}`;
    switch (key) {
      case 'GET ':
        return connector ? { status: 200, body: info(connector) } : notFound;
      case 'DELETE ':
        if (!connector) return notFound;
        connectors.delete(name);
        return { status: 204 };
      case 'GET /config':
        return connector ? { status: 200, body: { ...connector.config, name } } : notFound;
      case 'PUT /config': {
        if (!validConfig(body)) return error(400, 'Connector config is missing or invalid');
        if (body['name'] !== undefined && body['name'] !== name) {
          return error(400, `Connector name configuration (${body['name']}) doesn't match connector name in the URL (${name})`);
        }
        const { name: _ignored, ...config } = body;
        if (connector) {
          connector.config = config;
          pump();
          return { status: 200, body: info(connector) };
        }
        const created: Connector = { name, config, target: 'STARTED' };
        connectors.set(name, created);
        pump();
        return { status: 201, body: info(created) };
      }
      case 'GET /status':
        return connector ? { status: 200, body: statusOf(connector) } : error(404, `No status found for connector ${name}`);
      case 'PUT /pause':
        if (!connector) return error(404, `Unknown connector ${name}`);
        connector.target = 'PAUSED';
        return { status: 202 };
      case 'PUT /resume':
        if (!connector) return error(404, `Unknown connector ${name}`);
        connector.target = 'STARTED';
        pump();
        return { status: 202 };
      case 'PUT /stop':
        if (!connector) return notFound;
        connector.target = 'STOPPED';
        return { status: 204 };
      case 'GET /offsets': {
        if (!connector) return notFound;
        const offset = offsets.get(name);
        return {
          status: 200,
          body: {
            offsets:
              offset === undefined ? [] : [{ partition: { server: connector.config['topic.prefix'] ?? name }, offset: { lsn: offset } }],
          },
        };
      }
      case 'DELETE /offsets':
        if (!connector) return notFound;
        if (connector.target !== 'STOPPED') {
          return error(
            400,
            `Connectors must be in the STOPPED state before their offsets can be modified. This can be done for the specified connector by issuing a 'PUT' request to the '/connectors/${name}/stop' endpoint`,
          );
        }
        offsets.delete(name);
        return { status: 200, body: { message: OFFSETS_RESET_MESSAGE } };
      default:
        return ['', '/config', '/status', '/pause', '/resume', '/stop', '/offsets'].includes(action)
          ? error(405, 'HTTP 405 Method Not Allowed')
          : error(404, 'HTTP 404 Not Found');
    }
  }

  function injected(method: string, path: string): Reply | undefined {
    const index = faults.findIndex(
      (fault) =>
        (!fault.method || fault.method === method || (fault.method === 'MUTATING' && method !== 'GET')) &&
        (!fault.path || fault.path.test(path)),
    );
    if (index === -1) return undefined;
    const fault = faults[index]!;
    fault.times -= 1;
    if (fault.times <= 0) faults.splice(index, 1);
    return error(fault.status, fault.message);
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const method = (req.method ?? 'GET').toUpperCase();
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      let reply: Reply;
      try {
        body = text ? JSON.parse(text) : undefined;
        reply = injected(method, path) ?? route(method, path, body);
      } catch {
        reply = error(500, 'Unexpected character in the request body');
      }
      log.push(`${method} ${path} ${reply.status}`);
      if (reply.body === undefined) {
        res.writeHead(reply.status);
        res.end();
      } else {
        res.writeHead(reply.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(reply.body));
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    change(table, id, op = 'c') {
      if (op === 'd') rows.delete(`${table}/${id}`);
      else rows.set(`${table}/${id}`, { table, id });
      wal.push({ lsn: wal.length + 1, table, id, op });
      pump();
    },
    published: () => [...published],
    requests: () => [...log],
    failNext({ method, path, status, message, times = 1 }) {
      faults.push({ method, path, status, message: message ?? (status === 409 ? REBALANCE_MESSAGE : `HTTP ${status}`), times });
    },
    rebalance(times) {
      faults.push({ path: /^\/connectors/, method: 'MUTATING', status: 409, message: REBALANCE_MESSAGE, times });
    },
    connector(name) {
      const connector = connectors.get(name);
      return connector && { config: { ...connector.config }, target: connector.target, hasOffset: offsets.has(name) };
    },
    seed(name, config, target = 'STARTED') {
      connectors.set(name, { name, config: { ...config }, target });
      pump();
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
