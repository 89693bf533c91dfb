import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { localDataDir } from '../paths';
import { isProcessAlive } from '../processes';
import { DEFAULT_SHARED_ACCESS_KEY, startLocalEventHubs, type EventHubDefinition, type LocalEventHubs } from './localEventHubs';

export interface RunningEventHubs {
  connectionString: string;
  description: string;
  release(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/** Host and port of a development connection string (`UseDevelopmentEmulator=true` on a loopback host). */
export function developmentEndpoint(
  connectionString: string | undefined,
): { host: string; port: number; key: { name: string; key: string } } | undefined {
  if (!connectionString) return undefined;
  const parts = new Map(
    connectionString
      .split(';')
      .map((part) => part.trim())
      .filter(Boolean)
      .map((part) => {
        const at = part.indexOf('=');
        return [part.slice(0, at).toLowerCase(), part.slice(at + 1)] as const;
      }),
  );
  if (parts.get('usedevelopmentemulator')?.toLowerCase() !== 'true') return undefined;
  let endpoint: URL;
  try {
    endpoint = new URL(parts.get('endpoint') ?? '');
  } catch {
    return undefined;
  }
  if (!LOOPBACK.has(endpoint.hostname)) return undefined;
  return {
    host: endpoint.hostname === 'localhost' ? '127.0.0.1' : endpoint.hostname.replace(/^\[|\]$/g, ''),
    // Without a port the SDK uses AMQP's 5672 for the emulator.
    port: endpoint.port ? Number(endpoint.port) : 5672,
    key: {
      name: parts.get('sharedaccesskeyname') ?? DEFAULT_SHARED_ACCESS_KEY.name,
      key: parts.get('sharedaccesskey') ?? DEFAULT_SHARED_ACCESS_KEY.key,
    },
  };
}

/** What a running `npm start` records about its hub, so commands of the same checkout find it. */
interface HubInstance {
  pid: number;
  /** INGEST_EVENTHUB_CONNECTION as configured, and where the hub really listens. */
  configured: string;
  connectionString: string;
}

const instanceFile = () => path.join(localDataDir(), 'eventhubs', 'instance.json');

/**
 * The connection string of the hub this checkout's `npm start` runs, when the configured one is
 * the development string (the hub may sit on another port than configured); else the configured one.
 */
export function effectiveConnectionString(configured: string | undefined): string | undefined {
  if (!developmentEndpoint(configured)) return configured;
  const instance = readInstance();
  return instance && instance.configured === configured && isProcessAlive(instance.pid) ? instance.connectionString : configured;
}

function readInstance(): HubInstance | undefined {
  try {
    return JSON.parse(readFileSync(instanceFile(), 'utf8')) as HubInstance;
  } catch {
    return undefined;
  }
}

/**
 * For a development connection string: this process's local hub, on the string's port or, when
 * something else holds that port (another checkout's hub, any other server), on a free one. Like
 * the embedded PostgreSQL and Azurite, it never uses another checkout's server. The effective
 * connection string is returned and recorded in `.data/eventhubs/instance.json` for
 * `npm run ingest:simulate`. Returns undefined for any other connection string: the app then
 * talks to that namespace.
 */
export async function ensureLocalEventHubs(
  connectionString: string | undefined,
  eventHubs: Record<string, EventHubDefinition>,
): Promise<RunningEventHubs | undefined> {
  const endpoint = developmentEndpoint(connectionString);
  if (!endpoint || !connectionString) return undefined;
  const options = { host: endpoint.host, eventHubs, sharedAccessKey: endpoint.key };
  let hub: LocalEventHubs;
  let moved = false;
  try {
    hub = await startLocalEventHubs({ ...options, port: endpoint.port });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    hub = await startLocalEventHubs({ ...options, port: 0 });
    moved = true;
  }
  const effective = connectionString.replace(/(Endpoint=sb:\/\/[^;/]*?)(:\d+)?(\/?(?:;|$))/i, `$1:${hub.port}$3`);
  const file = instanceFile();
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(
    file,
    JSON.stringify({ pid: process.pid, configured: connectionString, connectionString: effective } satisfies HubInstance),
    { mode: 0o600 },
  );
  const layout = Object.entries(eventHubs)
    .map(([name, definition]) => `${name}: ${definition.partitionCount ?? 4} partitions`)
    .join('; ');
  const where = moved ? `; port ${endpoint.port} is held by another server` : '';
  return {
    connectionString: effective,
    description: `local hub on ${endpoint.host}:${hub.port} (${layout}; in memory${where})`,
    release: async () => {
      await hub.close();
      rmSync(file, { force: true });
    },
  };
}
