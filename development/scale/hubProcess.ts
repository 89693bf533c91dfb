import { startLocalEventHubs } from '../local/eventHubs/localEventHubs';

/**
 * The local hub of the federation run, in a process of its own, so that its CPU time is not the
 * service's (`npm run scale`). Arguments: hub name, partitions, events kept per partition.
 * Sends `{ connectionString }` over IPC once listening; stops on `stop`.
 */
async function main(): Promise<void> {
  const [name = 'club-data', partitions = '8', keep = '1000000'] = process.argv.slice(2);
  const hub = await startLocalEventHubs({
    port: 0,
    eventHubs: { [name]: { partitionCount: Number(partitions) } },
    // Every event of the run stays until it is read: a lagging service must not lose events.
    retention: { maxEvents: Number(keep), maxAgeMs: 24 * 3600_000 },
  });
  process.on('message', (message: unknown) => {
    if (message === 'stop') void hub.close().finally(() => process.exit(0));
  });
  process.send?.({ connectionString: hub.connectionString() });
}

main().catch((error: unknown) => {
  process.stderr.write(`scale hub failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
