import { randomUUID } from 'node:crypto';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

/**
 * A stand-in for the Application Insights ingestion endpoint (Breeze, `POST /v2.1/track`), so
 * that the Azure Monitor exporter runs unchanged against it: the body is a JSON array of
 * telemetry envelopes (`{ name, time, iKey, tags, data: { baseType, baseData } }`), gzip-encoded or
 * not, and the answer is `{ itemsReceived, itemsAccepted, errors: [] }`. An envelope whose iKey is
 * not the connection string's instrumentation key is refused (400 with its index in `errors`), as
 * the service refuses it. Over HTTPS on 127.0.0.1 (the exporter turns any `http://` endpoint into
 * `https://`), with the certificate of development/costsFake/certificate.ts, which the process
 * sending must trust (NODE_EXTRA_CA_CERTS).
 *
 * Not part of the service, for people and tests: `GET /envelopes` lists what was received,
 * newest last (at most `keep`), and `DELETE /envelopes` forgets it.
 */
export interface TelemetryEnvelope {
  name: string;
  time: string;
  iKey: string;
  tags?: Record<string, string>;
  data?: { baseType?: string; baseData?: Record<string, unknown> };
}

export interface FakeAppInsights {
  /** `InstrumentationKey=...;IngestionEndpoint=https://127.0.0.1:port/` for APPLICATIONINSIGHTS_CONNECTION_STRING. */
  connectionString: string;
  envelopes: TelemetryEnvelope[];
  /** Every request body as received (decoded), for assertions over the whole wire. */
  bodies: string[];
  close(): Promise<void>;
}

export interface FakeAppInsightsOptions {
  /** The server's certificate and key (development/costsFake/certificate.ts). */
  tls: { cert: string; key: string };
  port?: number;
  keep?: number;
}

const MAX_BODY_BYTES = 8 * 1024 * 1024;

export async function startFakeAppInsights(options: FakeAppInsightsOptions): Promise<FakeAppInsights> {
  const instrumentationKey = randomUUID();
  const keep = options.keep ?? 10_000;
  const envelopes: TelemetryEnvelope[] = [];
  const bodies: string[] = [];

  const answer = (response: ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };

  const track = (request: IncomingMessage, raw: Buffer, response: ServerResponse) => {
    let text: string;
    try {
      text = (request.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw).toString('utf8');
    } catch {
      return answer(response, 400, { itemsReceived: 0, itemsAccepted: 0, errors: [{ index: 0, statusCode: 400, message: 'bad gzip' }] });
    }
    let items: unknown;
    try {
      items = JSON.parse(text);
    } catch {
      // The service also takes newline-delimited envelopes.
      try {
        items = text
          .split('\n')
          .filter((line) => line.trim())
          .map((line) => JSON.parse(line) as unknown);
      } catch {
        return answer(response, 400, { itemsReceived: 0, itemsAccepted: 0, errors: [{ index: 0, statusCode: 400, message: 'not JSON' }] });
      }
    }
    const list = Array.isArray(items) ? (items as TelemetryEnvelope[]) : [items as TelemetryEnvelope];
    bodies.push(text);
    if (bodies.length > keep) bodies.splice(0, bodies.length - keep);
    const errors: { index: number; statusCode: number; message: string }[] = [];
    list.forEach((envelope, index) => {
      if (envelope?.iKey !== instrumentationKey) errors.push({ index, statusCode: 400, message: 'Invalid instrumentation key' });
      else envelopes.push(envelope);
    });
    if (envelopes.length > keep) envelopes.splice(0, envelopes.length - keep);
    answer(response, errors.length ? 206 : 200, { itemsReceived: list.length, itemsAccepted: list.length - errors.length, errors });
  };

  const listener: RequestListener = (request, response) => {
    const path = (request.url ?? '/').split('?', 1)[0];
    if (request.method === 'GET' && path === '/envelopes') return answer(response, 200, envelopes);
    if (request.method === 'DELETE' && path === '/envelopes') {
      envelopes.length = 0;
      bodies.length = 0;
      response.writeHead(204).end();
      return;
    }
    if (request.method !== 'POST' || !/^\/v2(\.1)?\/track$/.test(path ?? '')) return answer(response, 404, { error: 'not found' });
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) request.destroy();
      else chunks.push(chunk);
    });
    request.on('end', () => track(request, Buffer.concat(chunks), response));
  };
  const server = https.createServer({ cert: options.tls.cert, key: options.tls.key }, listener);
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    connectionString: `InstrumentationKey=${instrumentationKey};IngestionEndpoint=https://127.0.0.1:${port}/;LiveEndpoint=https://127.0.0.1:${port}/`,
    envelopes,
    bodies,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
