import http from 'node:http';
import net from 'node:net';
import { Readable } from 'node:stream';
import * as v from 'valibot';
import { startDevHost, type DevHost } from '../../development/devhost/host';
import { publicAccess } from '../../shared/http/guards';
import { defineRoute, json } from '../../shared/http/route';
import { httpGroup } from '../../shared/host/definition';
import { createLogger } from '../../shared/log/logger';
import { probeList } from '../support/probeRoutes';

const routes = [
  probeList,
  defineRoute({
    method: 'POST',
    path: '/probe/echo',
    summary: 'takes a body',
    guard: publicAccess,
    body: v.object({ text: v.string() }),
    maxBodyBytes: 1_000_000,
    handle: ({ body }) => Promise.resolve(json(body)),
  }),
];

interface RawExchange {
  status: number;
  head: string;
  body: string;
  /** The server closed the connection cleanly (FIN), not with a reset. */
  closedCleanly: boolean;
}

/** One request written byte for byte over TCP, so nothing a client library would fix up is fixed up. */
function exchange(port: number, head: string, body: Buffer | string = ''): Promise<RawExchange> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let reset = false;
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNRESET' || error.code === 'EPIPE') reset = true;
      else reject(error);
    });
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [rawHead = '', ...rest] = text.split('\r\n\r\n');
      resolve({
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(rawHead)?.[1] ?? 0),
        head: rawHead,
        body: rest.join('\r\n\r\n'),
        closedCleanly: !reset,
      });
    });
    socket.write(head + '\r\n\r\n');
    if (body.length) socket.write(body, () => undefined);
    // Ask the server to close after answering, so `close` marks the end of the answer.
  });
}

describe('the local host under malformed requests', () => {
  let host: DevHost;
  let port: number;
  const logLines: string[] = [];

  beforeAll(async () => {
    host = await startDevHost([httpGroup('probe', 'probe', routes)], {
      port: 0,
      log: createLogger({ minLevel: 'debug', sink: (_level, line) => logLines.push(line) }),
      functionLog: (_level, line) => logLines.push(line),
      setting: () => undefined,
      runTimers: false,
      maxBodyBytes: 64 * 1024,
    });
    port = Number(new URL(host.url).port);
  });
  afterAll(() => host.close());

  it.each([
    ['a Host with a space', 'GET /probe/items HTTP/1.1\r\nHost: a b'],
    ['a Host that is a lone bracket', 'GET /probe/items HTTP/1.1\r\nHost: ['],
    ['a Host with an impossible port', 'GET /probe/items HTTP/1.1\r\nHost: localhost:99999999'],
    ['a Host with credentials', 'GET /probe/items HTTP/1.1\r\nHost: user:secretpw@localhost'],
    ['the asterisk target', 'OPTIONS * HTTP/1.1\r\nHost: localhost'],
    ['a target opening an IPv6 authority', 'GET //[ HTTP/1.1\r\nHost: localhost'],
    ['a protocol-relative target', 'GET //evil.example/probe/items HTTP/1.1\r\nHost: localhost'],
    ['the absolute form', 'GET http://user:secretpw@localhost/probe/items HTTP/1.1\r\nHost: localhost'],
    ['CONNECT', 'CONNECT localhost:443 HTTP/1.1\r\nHost: localhost:443'],
  ])('400 problem+json for %s, and nothing of it in the log', async (_case, head) => {
    logLines.splice(0);
    const answer = await exchange(port, `${head}\r\nConnection: close`);
    expect(answer.status).toBe(400);
    expect(answer.head).toMatch(/\r\ncontent-type: application\/problem\+json/i);
    expect(JSON.parse(answer.body)).toMatchObject({ status: 400, title: 'Bad Request' });
    expect(answer.body).not.toMatch(/secretpw|evil/);
    expect(logLines.join('\n')).not.toMatch(/secretpw|evil\.example|99999999/);
    expect(logLines.filter((line) => line.includes('"level":"error"'))).toEqual([]);
  });

  it('answers a request line over the header limit with 431 problem+json', async () => {
    const answer = await exchange(port, `GET /probe/items?q=${'a'.repeat(70_000)} HTTP/1.1\r\nHost: localhost\r\nConnection: close`);
    expect(answer.status).toBe(431);
    expect(answer.head).toMatch(/\r\ncontent-type: application\/problem\+json/i);
    expect(JSON.parse(answer.body)).toMatchObject({ status: 431 });
  });

  it('answers HEAD with a request line over the header limit with 431 and no body', async () => {
    const answer = await exchange(port, `HEAD /probe/items?q=${'a'.repeat(70_000)} HTTP/1.1\r\nHost: localhost\r\nConnection: close`);
    expect(answer.status).toBe(431);
    expect(answer.head).toMatch(/\r\ncontent-type: application\/problem\+json/i);
    expect(answer.body).toBe('');
  });

  it('answers a request Node cannot parse with 400 problem+json, quoting nothing of it', async () => {
    const answer = await exchange(port, 'GET /probe/items HTTP/1.1\r\nHost: localhost\r\nContent-Length: 1\r\nContent-Length: secretpw');
    expect(answer.status).toBe(400);
    expect(answer.head).toMatch(/\r\ncontent-type: application\/problem\+json/i);
    expect(JSON.parse(answer.body)).toMatchObject({ status: 400, title: 'Bad Request' });
    expect(answer.body).not.toMatch(/secretpw/);
  });

  it('still serves a well-formed request with a port and an IPv6 Host', async () => {
    expect((await exchange(port, `GET /probe/items HTTP/1.1\r\nHost: localhost:${port}\r\nConnection: close`)).status).toBe(200);
    expect((await exchange(port, `GET /probe/items HTTP/1.1\r\nHost: [::1]:${port}\r\nConnection: close`)).status).toBe(200);
  });

  it('answers a declared oversized body with 413 and closes, without a reset', async () => {
    const answer = await exchange(
      port,
      'POST /probe/echo HTTP/1.1\r\nHost: localhost\r\ncontent-type: application/json\r\ncontent-length: 200000',
      Buffer.alloc(200_000, 0x20),
    );
    expect(answer.status).toBe(413);
    expect(answer.head).toMatch(/\r\nconnection: close/i);
    expect(JSON.parse(answer.body)).toMatchObject({ status: 413 });
    expect(answer.closedCleanly).toBe(true);
  });

  it('answers a chunked body that grows over the limit with 413 and closes, without a reset', async () => {
    const chunk = Buffer.alloc(16 * 1024, 0x20);
    const chunked = Buffer.concat(
      Array.from({ length: 12 }, () => Buffer.concat([Buffer.from(chunk.length.toString(16) + '\r\n'), chunk, Buffer.from('\r\n')])).concat(
        Buffer.from('0\r\n\r\n'),
      ),
    );
    const answer = await exchange(
      port,
      'POST /probe/echo HTTP/1.1\r\nHost: localhost\r\ncontent-type: application/json\r\ntransfer-encoding: chunked',
      chunked,
    );
    expect(answer.status).toBe(413);
    expect(answer.closedCleanly).toBe(true);
  });
});

describe("the local host with the Azure host's 100 MB body limit", () => {
  let host: DevHost;
  beforeAll(async () => {
    host = await startDevHost([httpGroup('probe', 'probe', routes)], {
      port: 0,
      log: createLogger({ minLevel: 'error', sink: () => undefined }),
      functionLog: () => undefined,
      setting: () => undefined,
      runTimers: false,
    });
  });
  afterAll(() => host.close());

  /** A 120 MB body streamed in 1 MB chunks by node:http, as any client library would send it. */
  function upload(headers: Record<string, string>): Promise<{ status: number; type: string | undefined; body: string; error?: string }> {
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    let sent = 0;
    const body = new Readable({
      read() {
        this.push(sent++ < 120 ? chunk : null);
      },
    });
    return new Promise((resolve) => {
      let answer: { status: number; type: string | undefined; body: string } | undefined;
      let failure: string | undefined;
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        resolve({ ...(answer ?? { status: 0, type: undefined, body: '' }), ...(failure ? { error: failure } : {}) });
      };
      const request = http.request(`${host.url}/probe/echo`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
      });
      request.on('error', (error: NodeJS.ErrnoException) => {
        failure = error.code ?? error.message;
        if (!answer) finish();
      });
      request.on('response', (response) => {
        const parts: Buffer[] = [];
        response.on('data', (part: Buffer) => parts.push(part));
        response.on('end', () => {
          answer = {
            status: response.statusCode ?? 0,
            type: response.headers['content-type'],
            body: Buffer.concat(parts).toString('utf8'),
          };
          // The upload may still be running: wait for it to end or fail before judging.
          if (request.writableFinished || failure) finish();
          else {
            request.on('finish', () => setImmediate(finish));
            request.on('close', () => setImmediate(finish));
          }
        });
      });
      body.pipe(request);
    });
  }

  it.each([
    ['declared with Content-Length', { 'content-length': String(120 * 1024 * 1024) }],
    ['sent chunked', {}],
  ])(
    'answers a 120 MB body %s with 413 problem+json that the client reads, without a reset',
    async (_label, headers) => {
      const answer = await upload(headers);
      expect(answer).toMatchObject({ status: 413, type: 'application/problem+json' });
      expect(JSON.parse(answer.body)).toMatchObject({ status: 413, title: 'Payload Too Large' });
      expect(answer.error).toBeUndefined();
    },
    60_000,
  );
});
