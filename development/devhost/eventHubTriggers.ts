import {
  type EventHubConsumerClient,
  earliestEventPosition,
  type PartitionContext,
  type ReceivedEventData,
  type Subscription,
} from '@azure/event-hubs';
import type { InvocationContext, RetryContext } from '@azure/functions';
import type { FunctionDefinition } from '../../shared/host/definition';
import { bindingConnection, createConsumerClient } from '../../shared/ingest/eventHubConnection';
import type { Logger } from '../../shared/log/logger';
import { toWorkerEventBatch } from './eventHubBinding';
import { retryDelayMs } from './retryPolicy';
import { resolveSettingExpression } from './settingExpression';

type EventHubDefinition = Extract<FunctionDefinition, { kind: 'eventHub' }>;

export interface EventHubTriggerSettings {
  /** host.json `extensions.eventHubs.maxEventBatchSize`. */
  maxEventBatchSize: number;
  /** host.json `extensions.eventHubs.maxWaitTime`, in seconds. */
  maxWaitTimeInSeconds: number;
  /** Waits between retries; tests pass one that records the delay and returns at once. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

export interface EventHubTriggerDeps extends EventHubTriggerSettings {
  log: Logger;
  setting: (name: string) => string | undefined;
  invocationContext: (
    functionName: string,
    extra: { triggerMetadata: Record<string, unknown>; retryContext?: RetryContext },
  ) => InvocationContext;
}

export interface RunningEventHubTriggers {
  /** One line per fed function, for start-up output. */
  descriptions: string[];
  close(): Promise<void>;
}

/**
 * Feeds every eventHub function from its hub through the real `EventHubConsumerClient`, as the
 * Azure host does: one batch per partition at a time, from the earliest event when the
 * partition has no checkpoint, up to `maxEventBatchSize` events. A throw runs the same batch
 * again under the function's retry policy before anything is checkpointed; without a policy
 * (or once it gives up) the batch is checkpointed anyway and lost, exactly the host's behaviour.
 * Checkpoints live in memory, like the local hub's events.
 */
export function startEventHubTriggers(definitions: readonly FunctionDefinition[], deps: EventHubTriggerDeps): RunningEventHubTriggers {
  const closing = new AbortController();
  const running: { client: EventHubConsumerClient; subscription: Subscription }[] = [];
  const descriptions: string[] = [];
  const sleep = deps.sleep ?? abortableSleep;

  for (const definition of definitions) {
    if (definition.kind !== 'eventHub') continue;
    const log = deps.log.with({ function: definition.name });
    const connection = bindingConnection(definition.options.connection, deps.setting);
    if (!connection) {
      log.warn('eventhub_trigger_skipped', { reason: `setting ${definition.options.connection} is not set` });
      continue;
    }
    const eventHubName = resolveSettingExpression(definition.options.eventHubName, deps.setting, `${definition.name} eventHubName`);
    const consumerGroup = resolveSettingExpression(
      definition.options.consumerGroup ?? '$Default',
      deps.setting,
      `${definition.name} consumerGroup`,
    );
    const client = createConsumerClient(connection, consumerGroup, eventHubName, undefined, {});
    const subscription = client.subscribe(
      {
        processEvents: async (events, context) => {
          if (events.length === 0) return;
          await deliver(definition, events, context, log);
          await context.updateCheckpoint(events[events.length - 1]!);
        },
        processError: async (error, context) => {
          if (closing.signal.aborted) return;
          log.warn('eventhub_trigger_receive_failed', { partitionId: context.partitionId, error });
          await Promise.resolve();
        },
      },
      {
        startPosition: earliestEventPosition,
        maxBatchSize: deps.maxEventBatchSize,
        maxWaitTimeInSeconds: deps.maxWaitTimeInSeconds,
        // The worker's own body conversion applies, so the SDK must not parse JSON first.
        skipParsingBodyAsJson: true,
      },
    );
    running.push({ client, subscription });
    descriptions.push(`${definition.name} <- ${eventHubName} (${consumerGroup})`);
  }

  async function deliver(
    definition: EventHubDefinition,
    events: ReceivedEventData[],
    context: PartitionContext,
    log: Logger,
  ): Promise<void> {
    const batch = toWorkerEventBatch(events, context);
    const policy = definition.options.retry;
    for (let retryCount = 0; ; retryCount += 1) {
      const retryContext = policy ? { retryCount, maxRetryCount: policy.maxRetryCount } : undefined;
      const invocation = deps.invocationContext(definition.name, {
        triggerMetadata: batch.triggerMetadata,
        ...(retryContext ? { retryContext } : {}),
      });
      try {
        await definition.options.handler(batch.messages, invocation);
        return;
      } catch (error) {
        const delay = policy ? retryDelayMs(policy, retryCount + 1) : undefined;
        const where = { partitionId: context.partitionId, firstSequenceNumber: events[0]?.sequenceNumber, size: events.length };
        if (delay === undefined) {
          log.error('event_batch_abandoned', { ...where, retryCount, error });
          return;
        }
        log.warn('event_batch_retry', { ...where, retry: retryCount + 1, delayMs: delay });
        await sleep(delay, closing.signal);
      }
    }
  }

  return {
    descriptions,
    close: async () => {
      closing.abort();
      for (const { subscription, client } of running) {
        await subscription.close();
        await client.close();
      }
    },
  };
}

function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new Error('stopping'));
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(new Error('stopping'));
    };
    signal.addEventListener('abort', stop, { once: true });
  });
}

/**
 * The hubs and consumer groups the eventHub functions read, for a local hub to serve. Functions
 * whose connection setting is not `connectionSetting` are left out (they read elsewhere).
 */
export function eventHubsReadBy(
  definitions: readonly FunctionDefinition[],
  connectionSetting: string,
  setting: (name: string) => string | undefined,
): Record<string, { consumerGroups: string[] }> {
  const hubs: Record<string, { consumerGroups: string[] }> = {};
  for (const definition of definitions) {
    if (definition.kind !== 'eventHub' || definition.options.connection !== connectionSetting) continue;
    const name = resolveSettingExpression(definition.options.eventHubName, setting, `${definition.name} eventHubName`);
    const group = resolveSettingExpression(definition.options.consumerGroup ?? '$Default', setting, `${definition.name} consumerGroup`);
    const hub = (hubs[name] ??= { consumerGroups: [] });
    if (!hub.consumerGroups.includes(group)) hub.consumerGroups.push(group);
  }
  return hubs;
}
