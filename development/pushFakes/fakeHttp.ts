import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The body of a request to a fake, refused above `limit` bytes as the real service would. */
export function readBody(request: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) request.destroy(new Error('too large'));
      else chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

export function sendJson(response: ServerResponse, statusCode: number, body?: unknown, headers: Record<string, string> = {}): void {
  response.statusCode = statusCode;
  for (const [name, value] of Object.entries(headers)) response.setHeader(name, value);
  if (body === undefined) return void response.end();
  response.setHeader('content-type', 'application/json');
  response.end(JSON.stringify(body));
}

/**
 * Starts a fake's server on 127.0.0.1 (at `port`, or any free one); answers the port and a close
 * that also ends the connections a client keeps alive, so a test's teardown does not wait for them.
 */
export async function listenLocally(server: Server, port = 0): Promise<{ port: number; close: () => Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
