import type { EventHubConsumerClient, EventPosition, ReceivedEventData, SubscribeOptions } from '@azure/event-hubs';

/**
 * Reads `count` events of one partition through a real subscription, then closes it. Errors the
 * subscription reports are collected (an owner-level kick arrives that way).
 */
export async function receive(
  client: EventHubConsumerClient,
  partitionId: string,
  count: number,
  startPosition: EventPosition,
  options: Omit<SubscribeOptions, 'startPosition'> = {},
): Promise<ReceivedEventData[]> {
  const received: ReceivedEventData[] = [];
  let done: () => void = () => undefined;
  const finished = new Promise<void>((resolve) => (done = resolve));
  const subscription = client.subscribe(
    partitionId,
    {
      processEvents: async (events) => {
        received.push(...events);
        if (received.length >= count) done();
        await Promise.resolve();
      },
      processError: () => Promise.resolve(),
    },
    { maxWaitTimeInSeconds: 1, ...options, startPosition },
  );
  await finished;
  await subscription.close();
  return received;
}

/** A subscription kept open, with what it received and the errors it reported. */
export function watch(
  client: EventHubConsumerClient,
  partitionId: string,
  startPosition: EventPosition,
  options: Omit<SubscribeOptions, 'startPosition'> = {},
) {
  const received: ReceivedEventData[] = [];
  const errors: Error[] = [];
  const waiters: (() => void)[] = [];
  const notify = () => waiters.splice(0).forEach((wake) => wake());
  const subscription = client.subscribe(
    partitionId,
    {
      processEvents: async (events) => {
        received.push(...events);
        notify();
        await Promise.resolve();
      },
      processError: async (error) => {
        errors.push(error);
        notify();
        await Promise.resolve();
      },
    },
    { maxWaitTimeInSeconds: 1, ...options, startPosition },
  );
  return {
    received,
    errors,
    subscription,
    /** Resolves once `condition` holds, checked after every delivery or error. */
    until: async (condition: () => boolean) => {
      while (!condition()) await new Promise<void>((resolve) => waiters.push(resolve));
    },
  };
}
