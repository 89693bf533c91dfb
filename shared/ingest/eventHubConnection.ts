import { EventHubConsumerClient, type CheckpointStore, type EventHubConsumerClientOptions } from '@azure/event-hubs';
import { hostConnection, identityCredential, type HostConnection, type HostConnectionSettings } from '../storage/tables';

export { EventHubNotConfiguredError } from './eventHubNotConfigured';

/**
 * How a reader reaches Event Hubs, in the two forms the Functions host accepts for the `ingest`
 * trigger's `INGEST_EVENTHUB_CONNECTION`: a connection string (the local endpoint), or an
 * identity-based connection (`INGEST_EVENTHUB_CONNECTION__fullyQualifiedNamespace`, optionally
 * `__credential` and `__clientId`) that carries no secret. The worker and the backfill read the
 * same settings, so one deployment form serves all three. A connection string wins, as for the host.
 */
export type EventHubConnection = HostConnection<{ fullyQualifiedNamespace: string }>;

type EventHubConnectionSettings = HostConnectionSettings<'INGEST_EVENTHUB_CONNECTION', 'fullyQualifiedNamespace'>;

/** The connection the settings describe; undefined when they describe none. */
export function eventHubConnection(settings: EventHubConnectionSettings): EventHubConnection | undefined {
  const namespace = settings.INGEST_EVENTHUB_CONNECTION__fullyQualifiedNamespace;
  return hostConnection(settings.INGEST_EVENTHUB_CONNECTION, namespace ? { fullyQualifiedNamespace: namespace } : undefined, {
    credential: settings.INGEST_EVENTHUB_CONNECTION__credential,
    clientId: settings.INGEST_EVENTHUB_CONNECTION__clientId,
  });
}

/** A consumer client on the connection; nothing is contacted until the first call. */
export function createConsumerClient(
  connection: EventHubConnection,
  consumerGroup: string,
  eventHubName: string,
  checkpointStore: CheckpointStore | undefined,
  options: EventHubConsumerClientOptions,
): EventHubConsumerClient {
  if (connection.kind === 'identity') {
    const credential = identityCredential(connection);
    return checkpointStore
      ? new EventHubConsumerClient(consumerGroup, connection.fullyQualifiedNamespace, eventHubName, credential, checkpointStore, options)
      : new EventHubConsumerClient(consumerGroup, connection.fullyQualifiedNamespace, eventHubName, credential, options);
  }
  return checkpointStore
    ? new EventHubConsumerClient(consumerGroup, connection.connectionString, eventHubName, checkpointStore, options)
    : new EventHubConsumerClient(consumerGroup, connection.connectionString, eventHubName, options);
}

/**
 * The connection a binding's `connection` name describes, read as the Functions host reads it: the
 * setting itself (a connection string), else `<name>__fullyQualifiedNamespace` with `__credential`
 * and `__clientId`.
 */
export function bindingConnection(name: string, setting: (name: string) => string | undefined): EventHubConnection | undefined {
  const value = (key: string) => setting(key)?.trim() || undefined;
  const connectionString = value(name);
  if (connectionString) return { kind: 'connectionString', connectionString };
  const namespace = value(`${name}__fullyQualifiedNamespace`);
  if (!namespace) return undefined;
  const clientId = value(`${name}__clientId`);
  return {
    kind: 'identity',
    fullyQualifiedNamespace: namespace,
    credential: value(`${name}__credential`)?.toLowerCase() === 'managedidentity' ? 'managedidentity' : 'default',
    ...(clientId ? { clientId } : {}),
  };
}
