import type { EventHubFunctionOptions, HttpFunctionOptions, RetryOptions, TimerFunctionOptions } from '@azure/functions';

/**
 * What the host is told about a function before any of its code runs: its name, trigger and
 * binding options (a declaration), and the retry policies. Apart from shared/host/definition.ts
 * (which builds the handlers) so that functions/declarations.ts can declare every function at
 * import without loading the dispatcher or any area.
 */

/** A function as the host must see it at start: kind, name and trigger binding, without its handler. */
export type Declaration<N extends string = string> = HttpDeclaration<N> | TimerDeclaration<N> | EventHubDeclaration<N>;
export interface HttpDeclaration<N extends string = string> {
  kind: 'http';
  name: N;
  options: Omit<HttpFunctionOptions, 'handler'> & { route: string };
}
/** A static web app's function: its files at `/<mount>/`. */
export interface SiteDeclaration<N extends string = string> extends HttpDeclaration<N> {
  mount: string;
}
export interface TimerDeclaration<N extends string = string> {
  kind: 'timer';
  name: N;
  options: Omit<TimerFunctionOptions, 'handler'>;
}
export interface EventHubDeclaration<N extends string = string> {
  kind: 'eventHub';
  name: N;
  options: Omit<EventHubFunctionOptions, 'handler'>;
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

// Not TRACE or CONNECT: the worker cannot even build a request object for them (fetch forbids
// them), so the host must answer them; the local host does so with the resource's Allow.
const ALL_METHODS: HttpFunctionOptions['methods'] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];

/** An endpoint group: every method on `prefix` and below, so the group itself answers 404 and 405. */
export function declareGroup<N extends string>(name: N, prefix: string): HttpDeclaration<N> {
  const route = prefix ? `${prefix}/{*rest}` : '{*rest}';
  return { kind: 'http', name, options: { route, methods: ALL_METHODS, authLevel: 'anonymous' } };
}

/** A static web app (functions/staticSite.ts): its files only, GET and HEAD. */
export function declareStaticSite<N extends string>(name: N, mount: string): SiteDeclaration<N> {
  return { kind: 'http', name, mount, options: { route: `${mount}/{*rest}`, methods: ['GET', 'HEAD'], authLevel: 'anonymous' } };
}

/** A timer on an NCRONTAB schedule or a `%SETTING%` expression, retried per RETRY_POLICIES.timer unless told otherwise. */
export function declareTimer<N extends string>(name: N, schedule: string, retry: RetryOptions = RETRY_POLICIES.timer): TimerDeclaration<N> {
  return { kind: 'timer', name, options: { schedule, retry } };
}

export interface EventHubBinding {
  /** Hub name or `%SETTING%` expression. */
  eventHubName: string;
  /** Name of the app setting holding the connection (string or identity-based prefix). */
  connection: string;
  consumerGroup?: string;
  retry?: RetryOptions;
}

/** An Event Hubs trigger receiving batches (`cardinality: 'many'`), retried per RETRY_POLICIES.eventBatch unless told otherwise. */
export function declareEventHub<N extends string>(
  name: N,
  { retry = RETRY_POLICIES.eventBatch, ...binding }: EventHubBinding,
): EventHubDeclaration<N> {
  return { kind: 'eventHub', name, options: { ...binding, cardinality: 'many', retry } };
}
