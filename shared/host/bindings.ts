import type { HttpFunctionOptions, RetryOptions } from '@azure/functions';

/**
 * What the host is told about a function before any of its code runs: the trigger bindings of an
 * endpoint group and the retry policies. Apart from shared/host/definition.ts (which builds the
 * handlers) so that functions/registrations.ts can declare every function at import without
 * loading the dispatcher or any area.
 */

// Not TRACE or CONNECT: the worker cannot even build a request object for them (fetch forbids
// them), so the host must answer them; the local host does so with the resource's Allow.
const ALL_METHODS: HttpFunctionOptions['methods'] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];

/** The HTTP trigger of an endpoint group: every method on `prefix` and below, so the group itself answers 404 and 405. */
export function groupBinding(prefix: string): Omit<HttpFunctionOptions, 'handler'> & { route: string } {
  const route = prefix ? `${prefix}/{*rest}` : '{*rest}';
  return { route, methods: ALL_METHODS, authLevel: 'anonymous' };
}

/**
 * The retry policies the app uses. Event Hubs needs one: without a policy the Azure host
 * checkpoints a batch after the function returns even when it threw, and the batch is lost.
 * With one, the host re-runs the same batch (and holds the checkpoint) until a run succeeds or
 * the retries run out. See docs/architecture.md, "Timers and events".
 */
export const RETRY_POLICIES = {
  /** Infrastructure failures of an event batch: 1 s doubling up to 5 min, then again without end. */
  eventBatch: { strategy: 'exponentialBackoff', maxRetryCount: -1, minimumInterval: { seconds: 1 }, maximumInterval: { minutes: 5 } },
  /** A timer run that failed on infrastructure: three more tries a minute apart. */
  timer: { strategy: 'fixedDelay', maxRetryCount: 3, delayInterval: { minutes: 1 } },
} satisfies Record<string, RetryOptions>;
