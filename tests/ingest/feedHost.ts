import type { EventHubHandler } from '@azure/functions';
import { functionDefinitions } from '../../functions/definitions';
import { startDevHost, type DevHost } from '../../development/devhost/host';
import { rawSetting } from '../../shared/config/settings';
import type { FunctionDefinition } from '../../shared/host/definition';
import { createLogger } from '../../shared/log/logger';

export interface LoggedLine {
  level: string;
  line: string;
}

const ingestDefinition = functionDefinitions.find((candidate) => candidate.name === 'ingest');
if (ingestDefinition?.kind !== 'eventHub') throw new Error('the ingest function is not registered');
const ingest = ingestDefinition;

/** The app's definitions with the `ingest` handler replaced by `wrap` of the real one. */
export function withIngestHandler(wrap: (handler: EventHubHandler) => EventHubHandler): FunctionDefinition[] {
  const wrapped: FunctionDefinition = {
    kind: 'eventHub',
    name: 'ingest',
    options: { ...ingest.options, handler: wrap(ingest.options.handler) },
  };
  return functionDefinitions.map((definition) => (definition.name === 'ingest' ? wrapped : definition));
}

/**
 * The local host fed from the Event Hubs of the settings, batches of up to 100 events after at
 * most a second, no timers but those named in `timers`; the host's and the functions' lines go to `logged`.
 */
export function startFeedHost(
  definitions: readonly FunctionDefinition[],
  logged: LoggedLine[],
  sleep?: (ms: number) => Promise<void>,
  timers: readonly string[] = [],
): Promise<DevHost> {
  return startDevHost(definitions, {
    port: 0,
    log: createLogger({ minLevel: 'info', sink: (level, line) => logged.push({ level, line }) }),
    functionLog: (level, line) => logged.push({ level, line }),
    setting: rawSetting,
    runTimers: timers,
    eventHubTriggers: { maxEventBatchSize: 100, maxWaitTimeInSeconds: 1, ...(sleep ? { sleep } : {}) },
  });
}
