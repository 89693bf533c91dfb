import http from 'node:http';

/** One answer as the client saw it. */
export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * A request sent through node:http with the path exactly as given: fetch() would resolve dot
 * segments and re-encode what the test means to send as it is.
 */
export function sendRaw(
  baseUrl: string,
  request: { method: string; path: string; headers?: Record<string, string>; body?: string | Buffer },
): Promise<RawAnswer> {
  const { hostname, port } = new URL(baseUrl);
  const headers = { ...request.headers };
  // node:http frames a GET or DELETE body only when told its length.
  if (request.body !== undefined) headers['content-length'] = String(Buffer.byteLength(request.body));
  return new Promise((resolve, reject) => {
    const req = http.request({ host: hostname, port, method: request.method, path: request.path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(request.body);
  });
}

/**
 * Percent-encodes any JavaScript string for a path segment or query value; a lone surrogate
 * becomes its three raw (ill-formed UTF-8) bytes, so the server meets it as a client could send it.
 */
export function percentEncode(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i += 1) {
    const unit = text.charCodeAt(i);
    const next = text.charCodeAt(i + 1);
    if (unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      out += encodeURIComponent(text.slice(i, i + 2));
      i += 1;
    } else if (unit >= 0xd800 && unit <= 0xdfff) {
      out += [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)]
        .map((byte) => `%${byte.toString(16).toUpperCase()}`)
        .join('');
    } else {
      out += encodeURIComponent(text[i] ?? '');
    }
  }
  return out;
}

/** Escapes that decode to something a router or a database may trip over, or do not decode at all. */
export const RAW_ESCAPES: readonly string[] = [
  '%00',
  '%ED%A0%80',
  '%C0%AE',
  '%FF',
  '%',
  '%zz',
  '%2F',
  '%5C',
  '%25',
  '%E2%80%8B',
  '%2e%2e%2f',
  '%0d%0a',
];

/** Only what node:http lets into a header value (no CR/LF, Latin-1), at most `max` characters. */
export function headerSafe(text: string, max = 4_000): string {
  return [...text]
    .filter((char) => {
      const code = char.charCodeAt(0);
      return char.length === 1 && (code === 9 || (code >= 0x20 && code <= 0x7e) || (code >= 0x80 && code <= 0xff));
    })
    .join('')
    .slice(0, max);
}
