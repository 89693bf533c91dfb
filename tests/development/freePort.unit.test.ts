import net from 'node:net';
import { firstEphemeralPort, freePort } from '../../development/local/net';

describe('freePort', () => {
  it('picks a port outside the range outgoing connections use, so none of them can take it first', async () => {
    const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(10_000);
      expect(port).toBeLessThan(firstEphemeralPort());
    }
  });

  it('hands out a port a server can then listen on', async () => {
    const port = await freePort();
    const server = net.createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', resolve);
    });
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
});
