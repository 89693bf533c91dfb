import path from 'node:path';
import type { InvocationContext } from '@azure/functions';
import { functionDefinitions } from '../../functions/definitions';
import { closeSql } from '../../shared/db/client';
import type { FunctionDefinition } from '../../shared/host/definition';
import { createLogger } from '../../shared/log/logger';
import { startDevHost } from '../devhost/host';
import { readEventHubTriggerSettings } from '../devhost/hostJson';

/**
 * The service side of the federation run in a process of its own: the local host with every
 * function of the app (the real EventHubConsumerClient feeding the ingest function, which applies
 * each batch and then evaluates the touched shooters' challenges; the HTTP routes the probes poll).
 * Settings come from the environment the parent passes. Over IPC: sends `{ url }` once listening;
 * answers `progress` with the highest sequence number the ingest function has finished with per
 * partition and the events it finished; stops on `stop`.
 */
const applied = new Map<string, number>();
let events = 0;

function counted(definition: FunctionDefinition): FunctionDefinition {
  if (definition.kind !== 'eventHub' || definition.name !== 'ingest') return definition;
  const ingest = definition.options.handler as (messages: unknown, invocation: InvocationContext) => Promise<unknown>;
  return {
    ...definition,
    options: {
      ...definition.options,
      handler: async (messages: unknown, invocation: InvocationContext) => {
        const outcome = await ingest(messages, invocation);
        const metadata = invocation.triggerMetadata ?? {};
        const partition = String((metadata['partitionContext'] as { partitionId?: string } | undefined)?.partitionId ?? '');
        const sequences = (metadata['sequenceNumberArray'] as number[] | undefined) ?? [];
        const highest = Math.max(-1, ...sequences);
        if (highest > (applied.get(partition) ?? -1)) applied.set(partition, highest);
        events += sequences.length;
        return outcome;
      },
    },
  };
}

async function main(): Promise<void> {
  const triggers = readEventHubTriggerSettings(path.join(__dirname, '../../host.json'));
  const host = await startDevHost(functionDefinitions.map(counted), {
    port: 0,
    log: createLogger({ minLevel: 'error' }),
    functionLog: (level, line) => {
      if (level === 'error') process.stderr.write(line + '\n');
    },
    setting: (name) => process.env[name],
    runTimers: false,
    eventHubTriggers: triggers,
  });
  process.on('message', (message: unknown) => {
    if (message === 'progress') process.send?.({ progress: { applied: Object.fromEntries(applied), events } });
    if (message === 'stop') {
      void host
        .close()
        .then(() => closeSql())
        .finally(() => process.exit(0));
    }
  });
  process.send?.({ url: host.url });
}

main().catch((error: unknown) => {
  process.stderr.write(`scale service failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
