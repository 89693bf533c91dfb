import path from 'node:path';
import { functionDefinitions } from '../../functions/definitions';
import { readEventHubTriggerSettings } from '../devhost/hostJson';
import { afterIngest, serveMeasuredHost } from '../local/measuredHost';

/**
 * The service side of the federation run in a process of its own: the local host with every
 * function of the app (the real EventHubConsumerClient feeding the ingest function, which applies
 * each batch; the progress drain on its schedule, which evaluates the touched shooters' challenges;
 * the HTTP routes the probes poll).
 * Settings come from the environment the parent passes. Over IPC: sends `{ url }` once listening;
 * answers `progress` with the highest sequence number the ingest function has finished with per
 * partition and the events it finished; stops on `stop`.
 */
const applied = new Map<string, number>();
let events = 0;

const definitions = afterIngest(functionDefinitions, (_messages, invocation) => {
  const metadata = invocation.triggerMetadata ?? {};
  const partition = String((metadata['partitionContext'] as { partitionId?: string } | undefined)?.partitionId ?? '');
  const sequences = (metadata['sequenceNumberArray'] as number[] | undefined) ?? [];
  const highest = Math.max(-1, ...sequences);
  if (highest > (applied.get(partition) ?? -1)) applied.set(partition, highest);
  events += sequences.length;
});

serveMeasuredHost('scale service', definitions, readEventHubTriggerSettings(path.join(__dirname, '../../host.json')), {
  progress: () => ({ applied: Object.fromEntries(applied), events }),
});
