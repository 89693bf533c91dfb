import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { freePort, isListening } from './net';
import { localDataDir } from './paths';
import { isProcessAlive } from './processes';

export interface RunningStorage {
  connectionString: string;
  description: string;
  /** The Table service endpoint for an identity-based connection (`AzureWebJobsStorage__tableServiceUri`), where one is served. */
  tableServiceUri?: string;
  release(): Promise<void>;
}

const DEFAULT_PORTS = { blob: 10000, queue: 10001, table: 10002 };
const DEV_STORAGE = 'UseDevelopmentStorage=true';
/** Written next to the data while this checkout's Azurite runs: who runs it, where, and how to reach it. */
const INSTANCE_FILE = 'instance.json';
const AZURITE_START_SECONDS = 90;

interface AzuriteInstance {
  pid: number;
  ports: { blob: number; queue: number; table: number };
  connectionString: string;
}

/**
 * AzureWebJobsStorage as configured. For `UseDevelopmentStorage=true` the Azurite of this
 * checkout's data folder (.data/azurite): reused when it runs already (its owner stops it), else
 * started here and stopped on release(). It is identified by the instance file in its data folder,
 * never by a port: when another checkout's Azurite holds the default ports, this one starts on free
 * ports with its own account key, and AzureWebJobsStorage becomes that instance's connection string.
 */
export async function ensureStorage(
  connectionString: string | undefined,
  /** defaultPorts: where UseDevelopmentStorage=true points (10000-10002); tests hold other ones to play another instance. */
  options: { location?: string; defaultPorts?: AzuriteInstance['ports'] } = {},
): Promise<RunningStorage> {
  const configured = connectionString?.trim() || DEV_STORAGE;
  if (!/UseDevelopmentStorage=true/i.test(configured)) {
    return { connectionString: configured, description: 'storage from AzureWebJobsStorage', release: () => Promise.resolve() };
  }
  const location = options.location ?? path.join(localDataDir(), 'azurite');
  const shown = path.relative(process.cwd(), location) || location;
  const running = await runningInstance(location);
  if (running) {
    return {
      connectionString: running.connectionString,
      description: `Azurite on 127.0.0.1:${running.ports.blob}-${running.ports.table} (data in ${shown}; reused the instance already running on it, pid ${running.pid}; its owner stops it)`,
      release: () => Promise.resolve(),
    };
  }
  const defaultPorts = options.defaultPorts ?? DEFAULT_PORTS;
  const defaultsFree = !(await anyListening(Object.values(defaultPorts)));
  let instance: { child: ChildProcess; ports: AzuriteInstance['ports']; connectionString: string };
  if (defaultsFree && defaultPorts === DEFAULT_PORTS) {
    const child = await startAzurite({ ports: defaultPorts, location });
    instance = { child, ports: defaultPorts, connectionString: DEV_STORAGE };
  } else {
    const ports = { blob: await freePort(), queue: await freePort(), table: await freePort() };
    const account = 'devaccount';
    const key = randomBytes(32).toString('base64');
    const child = await startAzurite({ ports, location, env: { AZURITE_ACCOUNTS: `${account}:${key}` } });
    instance = { child, ports, connectionString: accountConnectionString(account, key, ports) };
  }
  const file = path.join(location, INSTANCE_FILE);
  const record: AzuriteInstance = { pid: instance.child.pid ?? 0, ports: instance.ports, connectionString: instance.connectionString };
  writeFileSync(file, JSON.stringify(record), { mode: 0o600 });
  const where =
    instance.connectionString === DEV_STORAGE ? 'the default ports' : 'free ports: the default ones are held by another instance';
  return {
    connectionString: instance.connectionString,
    description: `Azurite on 127.0.0.1:${instance.ports.blob}-${instance.ports.table} (data in ${shown}; started on ${where})`,
    release: async () => {
      await stopChild(instance.child);
      rmSync(file, { force: true });
    },
  };
}

/** The Azurite recorded in the data folder's instance file, if that process still runs and listens. */
async function runningInstance(location: string): Promise<AzuriteInstance | undefined> {
  let record: AzuriteInstance;
  try {
    record = JSON.parse(readFileSync(path.join(location, INSTANCE_FILE), 'utf8')) as AzuriteInstance;
  } catch {
    return undefined;
  }
  if (!isProcessAlive(record.pid) || !(await isListening(record.ports.table))) return undefined;
  return record;
}

async function anyListening(ports: number[]): Promise<boolean> {
  for (const port of ports) if (await isListening(port)) return true;
  return false;
}

function accountConnectionString(account: string, key: string, ports: AzuriteInstance['ports']): string {
  const endpoint = (port: number) => `http://127.0.0.1:${port}/${account}`;
  return (
    `DefaultEndpointsProtocol=http;AccountName=${account};AccountKey=${key};` +
    `BlobEndpoint=${endpoint(ports.blob)};QueueEndpoint=${endpoint(ports.queue)};TableEndpoint=${endpoint(ports.table)};`
  );
}

/**
 * A private Azurite for a test run: free ports, a throw-away account with a random key (so no
 * well-known key is needed anywhere), data in the given folder.
 */
export async function startPrivateAzurite(
  ports: { blob: number; queue: number; table: number },
  location: string,
  options: { identity?: { certFile: string; keyFile: string } } = {},
): Promise<RunningStorage & { pid: number }> {
  const account = 'testaccount';
  const key = randomBytes(32).toString('base64');
  // With `identity`: HTTPS and Microsoft Entra tokens (OAuth "basic": audience, issuer and lifetime
  // are checked), as a storage account reached with a managed identity; Azurite accepts bearer
  // tokens over HTTPS only.
  const identityArgs = options.identity ? ['--oauth', 'basic', '--cert', options.identity.certFile, '--key', options.identity.keyFile] : [];
  const child = await startAzurite({ ports, location, env: { AZURITE_ACCOUNTS: `${account}:${key}` }, args: identityArgs });
  if (options.identity) {
    return {
      pid: child.pid ?? 0,
      connectionString: accountConnectionString(account, key, ports).replace(/http:/g, 'https:'),
      description: `Azurite (HTTPS, OAuth) on 127.0.0.1:${ports.blob}-${ports.table}`,
      tableServiceUri: `https://127.0.0.1:${ports.table}/${account}`,
      release: () => stopChild(child),
    };
  }
  return {
    pid: child.pid ?? 0,
    connectionString: accountConnectionString(account, key, ports),
    description: `Azurite on 127.0.0.1:${ports.blob}-${ports.table}`,
    release: () => stopChild(child),
  };
}

async function startAzurite(options: {
  ports: { blob: number; queue: number; table: number };
  location: string;
  env?: Record<string, string>;
  args?: string[];
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
      ...(options.args ?? []),
    ],
    { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...options.env } },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  // Generous: on a busy machine (a test run starting several at once) Azurite takes its time.
  const deadline = Date.now() + AZURITE_START_SECONDS * 1000;
  while (!(await isListening(options.ports.table))) {
    if (child.exitCode !== null) throw new Error(`Azurite exited early: ${stderr.slice(0, 500)}`);
    if (Date.now() > deadline) {
      child.kill();
      throw new Error(`Azurite did not start within ${AZURITE_START_SECONDS} s`);
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
