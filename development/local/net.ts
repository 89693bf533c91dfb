import net from 'node:net';
import { readFileSync } from 'node:fs';

/** True when something accepts TCP connections on 127.0.0.1:port. */
export function isListening(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    socket.setTimeout(1_000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(false));
  });
}

const LOWEST_PICKED_PORT = 10_000;

/**
 * The first port the OS hands to outgoing connections (Linux's ip_local_port_range; 32768 where
 * it cannot be read).
 */
export function firstEphemeralPort(): number {
  try {
    const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/);
    const port = Number(low);
    return Number.isInteger(port) && port > 0 ? port : 32_768;
  } catch {
    return 32_768;
  }
}

function tryListen(port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', () => resolve(undefined));
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      const bound = typeof address === 'object' && address ? address.port : undefined;
      server.close(() => resolve(bound));
    });
  });
}

/**
 * A port that was free a moment ago. It is picked below the OS's ephemeral range: a port from
 * that range can be taken by any outgoing connection on the machine before the caller's server
 * binds it, which a busy test run or a host opening its database pool does within seconds.
 */
export async function freePort(): Promise<number> {
  const below = firstEphemeralPort();
  if (below > LOWEST_PICKED_PORT + 1_000) {
    for (let attempt = 0; attempt < 20; attempt++) {
      const candidate = LOWEST_PICKED_PORT + Math.floor(Math.random() * (below - LOWEST_PICKED_PORT));
      const port = await tryListen(candidate);
      if (port !== undefined) return port;
    }
  }
  const port = await tryListen(0);
  if (port === undefined) throw new Error('no free TCP port on 127.0.0.1');
  return port;
}
