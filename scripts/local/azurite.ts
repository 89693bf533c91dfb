import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { isListening } from './net';
import { localDataDir } from './paths';

export interface RunningStorage {
  connectionString: string;
  description: string;
  release(): Promise<void>;
}

const DEFAULT_PORTS = { blob: 10000, queue: 10001, table: 10002 };
const DEV_STORAGE = 'UseDevelopmentStorage=true';

/**
 * AzureWebJobsStorage as configured. For `UseDevelopmentStorage=true` an Azurite instance on the
 * default ports is used, started (data under .data/azurite) when none is running.
 */
export async function ensureStorage(connectionString: string | undefined): Promise<RunningStorage> {
  const configured = connectionString?.trim() || DEV_STORAGE;
  if (!/UseDevelopmentStorage=true/i.test(configured)) {
    return { connectionString: configured, description: 'storage from AzureWebJobsStorage', release: async () => undefined };
  }
  if (await isListening(DEFAULT_PORTS.table)) {
    return {
      connectionString: configured,
      description: 'Azurite already running on 127.0.0.1:10000-10002',
      release: async () => undefined,
    };
  }
  const child = await startAzurite({ ports: DEFAULT_PORTS, location: path.join(localDataDir, 'azurite') });
  return {
    connectionString: configured,
    description: 'Azurite on 127.0.0.1:10000-10002 (data in .data/azurite)',
    release: () => stopChild(child),
  };
}

/**
 * A private Azurite for a test run: free ports, a throw-away account with a random key (so no
 * well-known key is needed anywhere), data in the given folder.
 */
export async function startPrivateAzurite(
  ports: { blob: number; queue: number; table: number },
  location: string,
): Promise<RunningStorage & { pid: number }> {
  const account = 'testaccount';
  const key = randomBytes(32).toString('base64');
  const child = await startAzurite({ ports, location, env: { AZURITE_ACCOUNTS: `${account}:${key}` } });
  const endpoint = (port: number) => `http://127.0.0.1:${port}/${account}`;
  return {
    pid: child.pid ?? 0,
    connectionString:
      `DefaultEndpointsProtocol=http;AccountName=${account};AccountKey=${key};` +
      `BlobEndpoint=${endpoint(ports.blob)};QueueEndpoint=${endpoint(ports.queue)};TableEndpoint=${endpoint(ports.table)};`,
    description: `Azurite on 127.0.0.1:${ports.blob}-${ports.table}`,
    release: () => stopChild(child),
  };
}

async function startAzurite(options: {
  ports: { blob: number; queue: number; table: number };
  location: string;
  env?: Record<string, string>;
}): Promise<ChildProcess> {
  mkdirSync(options.location, { recursive: true });
  const entry = require.resolve('azurite/dist/src/azurite.js');
  const child = spawn(
    process.execPath,
    [
      entry,
      '--silent',
      '--skipApiVersionCheck',
      '--disableTelemetry',
      '--location',
      options.location,
      '--blobHost',
      '127.0.0.1',
      '--blobPort',
      String(options.ports.blob),
      '--queueHost',
      '127.0.0.1',
      '--queuePort',
      String(options.ports.queue),
      '--tableHost',
      '127.0.0.1',
      '--tablePort',
      String(options.ports.table),
    ],
    { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...options.env } },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const deadline = Date.now() + 20_000;
  while (!(await isListening(options.ports.table))) {
    if (child.exitCode !== null) throw new Error(`Azurite exited early: ${stderr.slice(0, 500)}`);
    if (Date.now() > deadline) {
      child.kill();
      throw new Error('Azurite did not start within 20 s');
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return child;
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
