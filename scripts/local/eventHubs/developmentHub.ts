import { EventHubProducerClient } from '@azure/event-hubs';
import { isListening } from '../net';
import { DEFAULT_SHARED_ACCESS_KEY, startLocalEventHubs, type EventHubDefinition } from './localEventHubs';

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

/**
 * For a development connection string: the local hub on its port, started unless one already
 * answers there (another `npm start`). Anything else on that port is an error, not a hub.
 * Returns undefined for any other connection string: the app then talks to that namespace.
 */
export async function ensureLocalEventHubs(
  connectionString: string | undefined,
  eventHubs: Record<string, EventHubDefinition>,
): Promise<RunningEventHubs | undefined> {
  const endpoint = developmentEndpoint(connectionString);
  if (!endpoint || !connectionString) return undefined;
  const names = Object.keys(eventHubs).join(', ');
  const reuse = async (): Promise<RunningEventHubs> => {
    const firstHub = Object.keys(eventHubs)[0] ?? 'club-data';
    const probe = new EventHubProducerClient(connectionString, firstHub, { retryOptions: { maxRetries: 0, timeoutInMs: 5_000 } });
    try {
      await probe.getEventHubProperties();
    } catch {
      throw new Error(
        `${endpoint.host}:${endpoint.port} is taken by something that is not a local Event Hubs endpoint serving ${firstHub}`,
      );
    } finally {
      await probe.close();
    }
    return {
      connectionString,
      description: `local hub already running on ${endpoint.host}:${endpoint.port}`,
      release: () => Promise.resolve(),
    };
  };
  if (await isListening(endpoint.port, endpoint.host)) return reuse();
  let hub;
  try {
    hub = await startLocalEventHubs({ port: endpoint.port, host: endpoint.host, eventHubs, sharedAccessKey: endpoint.key });
  } catch (error) {
    // Another npm start won the race for the port between the check and the listen.
    if ((error as { code?: unknown }).code === 'EADDRINUSE') return reuse();
    throw error;
  }
  const layout = Object.entries(eventHubs)
    .map(([name, definition]) => `${name}: ${definition.partitionCount ?? 4} partitions`)
    .join('; ');
  return {
    connectionString,
    description: `local hub on ${endpoint.host}:${endpoint.port} (${layout || names}; in memory)`,
    release: () => hub.close(),
  };
}
