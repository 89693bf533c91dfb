import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { EventHubProducerClient } from '@azure/event-hubs';
import { freePort, isListening } from '../../development/local/net';

/** `npm start` with the development connection string: the local hub runs, is printed, and stops with the rest. */
describe('npm start with the local hub', () => {
  const root = path.resolve(__dirname, '..', '..');
  let child: ChildProcess | undefined;

  afterEach(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
  });

  function start(env: Record<string, string>) {
    const started = spawn(process.execPath, [require.resolve('tsx/cli'), 'development/start.ts'], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const run = { child: started, output: '' };
    started.stdout?.on('data', (chunk: Buffer) => (run.output += chunk.toString()));
    started.stderr?.on('data', (chunk: Buffer) => (run.output += chunk.toString()));
    return run;
  }

  it('starts the hub on the port of INGEST_EVENTHUB_CONNECTION, prints it, and stops it on SIGINT', async () => {
    const [port, hubPort] = [await freePort(), await freePort()];
    const connection = `Endpoint=sb://127.0.0.1:${hubPort};SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=SAS_KEY_VALUE;UseDevelopmentEmulator=true`;
    const run = start({ PORT: String(port), INGEST_EVENTHUB_CONNECTION: connection, INGEST_EVENTHUB_NAME: 'club-data' });
    child = run.child;
    const deadline = Date.now() + 40_000;
    while (Date.now() < deadline && !run.output.includes('Listening:') && run.child.exitCode === null) {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(run.output).toContain(`Events:    local hub on 127.0.0.1:${hubPort} (club-data: 4 partitions; in memory)`);
    expect(run.output).toContain(`INGEST_EVENTHUB_CONNECTION=${connection}`);

    const producer = new EventHubProducerClient(connection, 'club-data');
    try {
      expect((await producer.getEventHubProperties()).partitionIds).toEqual(['0', '1', '2', '3']);
    } finally {
      await producer.close();
    }

    const exited = new Promise<number | null>((resolve) => run.child.once('exit', (code) => resolve(code)));
    run.child.kill('SIGINT');
    expect([0, 130]).toContain(await exited);
    expect(await isListening(hubPort)).toBe(false);
  }, 60_000);

  it('moves the hub to a free port when something else holds the configured one, and says so', async () => {
    const blocker = net.createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const heldPort = (blocker.address() as net.AddressInfo).port;
    try {
      const run = start({
        PORT: String(await freePort()),
        INGEST_EVENTHUB_CONNECTION: `Endpoint=sb://127.0.0.1:${heldPort};SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=SAS_KEY_VALUE;UseDevelopmentEmulator=true`,
      });
      child = run.child;
      const deadline = Date.now() + 40_000;
      while (Date.now() < deadline && !run.output.includes('Listening:') && run.child.exitCode === null) {
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect(run.output).toContain(`port ${heldPort} is held by another server`);
      const printed = /INGEST_EVENTHUB_CONNECTION=(\S+)/.exec(run.output)?.[1] ?? '';
      expect(printed).toMatch(/^Endpoint=sb:\/\/127\.0\.0\.1:\d+;.*UseDevelopmentEmulator=true$/);
      expect(printed).not.toContain(`:${heldPort};`);
      const producer = new EventHubProducerClient(printed, 'club-data');
      try {
        expect((await producer.getEventHubProperties()).name).toBe('club-data');
      } finally {
        await producer.close();
      }
      const exited = new Promise<number | null>((resolve) => run.child.once('exit', (code) => resolve(code)));
      run.child.kill('SIGINT');
      expect([0, 130]).toContain(await exited);
    } finally {
      blocker.close();
    }
  }, 60_000);
});
