import net from 'node:net';

export interface FaultProxy {
  /** The port clients connect to (127.0.0.1). */
  readonly port: number;
  /** Open client connections right now. */
  readonly openConnections: number;
  /** Destroys every open connection at once (both sides), as a server restart or a network cut would. */
  cutAll(): void;
  /** New connections are refused (closed at once) until accept() is called; open ones stay. */
  refuse(): void;
  /** New connections are forwarded again. */
  accept(): void;
  /** Holds back every byte in both directions by `ms` (0 = none). */
  delay(ms: number): void;
  close(): Promise<void>;
}

/**
 * A TCP proxy on a free loopback port in front of `target`, with switches a test flips to play a
 * fault: cut every connection, refuse new ones, slow the traffic. Nothing else is touched: the
 * server behind it keeps running for everybody else.
 */
export async function startFaultProxy(target: { host: string; port: number }): Promise<FaultProxy> {
  const pairs = new Set<{ client: net.Socket; upstream: net.Socket }>();
  let refusing = false;
  let delayMs = 0;

  const pipe = (from: net.Socket, to: net.Socket) => {
    from.on('data', (chunk) => {
      if (delayMs === 0) return void to.write(chunk);
      from.pause();
      setTimeout(() => {
        if (!to.destroyed) to.write(chunk);
        from.resume();
      }, delayMs);
    });
    from.on('end', () => to.end());
  };

  const server = net.createServer((client) => {
    // A reset, as a closed port would give (ECONNRESET rather than a silent close).
    if (refusing) return void client.resetAndDestroy();
    const upstream = net.connect(target.port, target.host);
    const pair = { client, upstream };
    pairs.add(pair);
    const drop = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    pipe(client, upstream);
    pipe(upstream, client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;

  const cutAll = () => {
    for (const { client, upstream } of [...pairs]) {
      client.destroy();
      upstream.destroy();
    }
    pairs.clear();
  };

  return {
    port,
    get openConnections() {
      return pairs.size;
    },
    cutAll,
    refuse: () => void (refusing = true),
    accept: () => void (refusing = false),
    delay: (ms) => void (delayMs = ms),
    async close() {
      cutAll();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** `url` with its host and port replaced by the proxy's. */
export function throughProxy(url: string, proxy: FaultProxy): string {
  const proxied = new URL(url);
  proxied.hostname = '127.0.0.1';
  proxied.port = String(proxy.port);
  return proxied.toString();
}
