// Apart from eventHubConnection.ts, so that what only recognises the error (a command's exit code) does not load the Event Hubs SDK.
export class EventHubNotConfiguredError extends Error {
  constructor(reader: string) {
    super(
      `Neither INGEST_EVENTHUB_CONNECTION nor INGEST_EVENTHUB_CONNECTION__fullyQualifiedNamespace is set: the Event Hubs namespace ${reader} reads`,
    );
    this.name = 'EventHubNotConfiguredError';
  }
}
