import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { EventHubConsumerClient } from '@azure/event-hubs';
import { freePort, isListening } from '../../development/local/net';

/**
 * `npm run services` for `func start`: besides PostgreSQL and Azurite it runs the local Event Hubs
 * endpoint, so the real host's eventHub trigger has a hub and consumer group to read, prints the
 * connection string to put into local.settings.json, and stops it on Ctrl-C.
 */
describe('npm run services with the development Event Hubs connection', () => {
  const root = path.resolve(__dirname, '..', '..');
  let child: ChildProcess | undefined;

  afterEach(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
  });

  it('serves the hub and consumer group the ingest function reads, prints its connection string, and stops it on SIGINT', async () => {
    const hubPort = await freePort();
    const connection = `Endpoint=sb://127.0.0.1:${hubPort};SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=SAS_KEY_VALUE;UseDevelopmentEmulator=true`;
    const started = spawn(process.execPath, [require.resolve('tsx/cli'), 'development/services.ts'], {
      cwd: root,
      env: {
        ...process.env,
        INGEST_EVENTHUB_CONNECTION: connection,
        INGEST_EVENTHUB_NAME: 'club-data',
        INGEST_EVENTHUB_CONSUMER_GROUP: 'functions',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = started;
    let output = '';
    started.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    started.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const deadline = Date.now() + 40_000;
    while (Date.now() < deadline && !output.includes('Ctrl-C stops them.') && started.exitCode === null) {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(output).toContain(`Events:   local hub on 127.0.0.1:${hubPort} (club-data: 4 partitions; in memory)`);
    expect(output).toContain(`"INGEST_EVENTHUB_CONNECTION": "${connection}"`);

    const consumer = new EventHubConsumerClient('functions', connection, 'club-data');
    try {
      expect((await consumer.getEventHubProperties()).partitionIds).toEqual(['0', '1', '2', '3']);
    } finally {
      await consumer.close();
    }

    const exited = new Promise<number | null>((resolve) => started.once('exit', (code) => resolve(code)));
    started.kill('SIGINT');
    expect([0, 130]).toContain(await exited);
    expect(await isListening(hubPort)).toBe(false);
  }, 60_000);
});
