import { readFileSync } from 'node:fs';
import type { EventHubTriggerSettings } from './eventHubTriggers';

/**
 * The host.json values the local host honours for Event Hubs triggers, with the extension's
 * defaults (maxEventBatchSize 100, maxWaitTime one minute) where host.json is silent.
 */
export function readEventHubTriggerSettings(hostJsonPath: string): EventHubTriggerSettings {
  const json = JSON.parse(readFileSync(hostJsonPath, 'utf8')) as {
    extensions?: { eventHubs?: { maxEventBatchSize?: number; maxWaitTime?: string } };
  };
  const eventHubs = json.extensions?.eventHubs ?? {};
  return {
    maxEventBatchSize: eventHubs.maxEventBatchSize ?? 100,
    maxWaitTimeInSeconds: eventHubs.maxWaitTime ? timeSpanSeconds(eventHubs.maxWaitTime) : 60,
  };
}

/** A .NET TimeSpan `hh:mm:ss` (as host.json writes durations) in seconds. */
export function timeSpanSeconds(value: string): number {
  const match = /^(\d+):(\d{2}):(\d{2}(?:\.\d+)?)$/.exec(value.trim());
  if (!match) throw new Error(`host.json duration "${value}" must look like hh:mm:ss`);
  return Number(match[1]) * 3600 + Number(match[2]) * 60 + Number(match[3]);
}
