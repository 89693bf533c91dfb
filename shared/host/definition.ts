import type {
  EventHubFunctionOptions,
  HttpFunctionOptions,
  InvocationContext,
  RetryOptions,
  Timer,
  TimerFunctionOptions,
} from '@azure/functions';
import { configuredLogLevel } from '../config/settings';
import { createDispatcher } from '../http/dispatch';
import type { Route } from '../http/route';
import { BusyError, DomainError } from '../errors/domainErrors';
import { createInvocationLogger, type Logger } from '../log/logger';
import { telemetry, within, type Attributes, type JobSpan } from '../telemetry/telemetry';
import {
  declareEventHub,
  declareGroup,
  declareTimer,
  RETRY_POLICIES,
  type EventHubBinding,
  type EventHubDeclaration,
  type HttpDeclaration,
  type TimerDeclaration,
} from './bindings';

/**
 * One function of the app, as data. functions/index.ts hands each to `app.http` / `app.timer` /
 * `app.eventHub` for the Azure host; the local host serves the very same list.
 */
export type FunctionDefinition =
  | { kind: 'http'; name: string; options: HttpFunctionOptions; routes: readonly Route[] }
  | { kind: 'timer'; name: string; options: TimerFunctionOptions }
  | { kind: 'eventHub'; name: string; options: EventHubFunctionOptions };

/**
 * One HTTP function for an endpoint group. The function accepts every method on its prefix and
 * below so that the group itself answers 404 and 405 in problem+json.
 */
export function defineGroup(declaration: HttpDeclaration, routes: readonly Route[]): FunctionDefinition {
  const handler = createDispatcher(routes, `/${declaration.options.route}`);
  return { kind: 'http', name: declaration.name, routes, options: { ...declaration.options, handler } };
}

/** An endpoint group declared on the spot (tests, benches); the app's own are in functions/declarations.ts. */
export function httpGroup(name: string, prefix: string, routes: readonly Route[]): FunctionDefinition {
  return defineGroup(declareGroup(name, prefix), routes);
}

export interface JobContext {
  log: Logger;
  invocationId: string;
}

function jobLogger(context: InvocationContext, functionName: string): Logger {
  return createInvocationLogger(context, { minLevel: configuredLogLevel() }).with({
    function: functionName,
    invocationId: context.invocationId,
  });
}

export { RETRY_POLICIES };

/**
 * Whether a failed job should run again. A domain error (bad data, a broken rule) fails the same
 * way every time, so retrying it would only block the timer or, for Event Hubs, the partition;
 * anything else (database down, serialization failure) is an infrastructure failure worth retrying.
 * A BusyError ("too much at once", such as every pool connection held: shared/db/poolGuard.ts)
 * passes with time, so it is retried too; dropping it would lose an event batch under load.
 */
export function isRetryableJobError(error: unknown): boolean {
  return !(error instanceof DomainError) || error instanceof BusyError;
}

export interface TimerOptions {
  /** NCRONTAB (`{second} {minute} {hour} {day} {month} {weekday}`) or a `%SETTING%` expression. */
  schedule: string;
  retry?: RetryOptions;
}

/** A timer function declared on the spot (tests); the app's own are in functions/declarations.ts. */
export function timerFunction(
  name: string,
  { schedule, retry }: TimerOptions,
  run: (job: JobContext, timer: Timer) => Promise<Record<string, unknown> | void>,
): FunctionDefinition {
  return defineTimer(declareTimer(name, schedule, retry), run);
}

/**
 * A timer function. Infrastructure failures are logged and rethrown so the host records the
 * invocation as failed and retries per policy; a domain error is logged and not retried. A run
 * whose outcome `idle` calls idle (a timer every few seconds that found nothing to do) is logged
 * at debug level, so that such a timer does not fill the log.
 */
export function defineTimer(
  { name, options }: TimerDeclaration,
  run: (job: JobContext, timer: Timer) => Promise<Record<string, unknown> | void>,
  { idle }: { idle?: (outcome: Record<string, unknown> | void) => boolean } = {},
): FunctionDefinition {
  return {
    kind: 'timer',
    name,
    options: {
      ...options,
      handler: (timer, context) => {
        const log = jobLogger(context, name);
        const started = performance.now();
        const durationMs = () => Math.round(performance.now() - started);
        return runJob(
          telemetry()?.jobSpan(name, { 'app.trigger': 'timer', 'app.retry_count': context.retryContext?.retryCount }),
          () => run({ log, invocationId: context.invocationId }, timer),
          (outcome) => {
            const fields = { durationMs: durationMs(), ...(outcome ?? {}) };
            if (idle?.(outcome)) log.debug('timer_completed', fields);
            else log.info('timer_completed', fields);
          },
          (retryable, error) => log.error('timer_failed', { durationMs: durationMs(), retryable, error }),
        );
      },
    },
  };
}

/** An Event Hubs function declared on the spot (tests); the app's own are in functions/declarations.ts. */
export function eventHubFunction(
  name: string,
  binding: EventHubBinding,
  run: (job: JobContext, messages: unknown[], context: InvocationContext) => Promise<Record<string, unknown> | void>,
): FunctionDefinition {
  return defineEventHub(declareEventHub(name, binding), run);
}

/**
 * An Event Hubs function receiving batches. An infrastructure failure is rethrown and, through the
 * retry policy, the same batch runs again before any checkpoint; a domain error escaping the area
 * (a poison batch) is logged and dropped so it cannot block the partition. Areas handle per-event
 * rejects themselves and never throw for them.
 */
export function defineEventHub(
  { name, options }: EventHubDeclaration,
  run: (job: JobContext, messages: unknown[], context: InvocationContext) => Promise<Record<string, unknown> | void>,
): FunctionDefinition {
  return {
    kind: 'eventHub',
    name,
    options: {
      ...options,
      handler: (messages, context) => {
        const log = jobLogger(context, name);
        const batch = Array.isArray(messages) ? messages : [messages];
        return runJob(
          telemetry()?.jobSpan(name, {
            'app.trigger': 'eventHub',
            'messaging.batch.message_count': batch.length,
            'app.retry_count': context.retryContext?.retryCount,
          }),
          () => run({ log, invocationId: context.invocationId }, batch, context),
          (outcome) => log.info('event_batch_completed', { size: batch.length, ...(outcome ?? {}) }),
          (retryable, error) =>
            log.error(retryable ? 'event_batch_failed' : 'event_batch_dropped', {
              size: batch.length,
              retryCount: context.retryContext?.retryCount,
              error,
            }),
        );
      },
    },
  };
}

type JobOutcome = Record<string, unknown> | void;

/**
 * One run of a job inside its span: the outcome reported, or the failure reported and, when
 * retryable (isRetryableJobError), rethrown so that the host retries per policy.
 */
async function runJob(
  span: JobSpan | undefined,
  work: () => Promise<JobOutcome>,
  completed: (outcome: JobOutcome) => void,
  failed: (retryable: boolean, error: unknown) => void,
): Promise<void> {
  try {
    const outcome = await within(span, work);
    span?.end(spanAttributes(outcome));
    completed(outcome);
  } catch (error) {
    const retryable = isRetryableJobError(error);
    span?.end({ 'app.retryable': retryable }, error);
    failed(retryable, error);
    if (retryable) throw error;
  }
}

/** A job's outcome as span attributes: its numbers, texts and flags (`app.outcome.applied`). */
function spanAttributes(outcome: Record<string, unknown> | void): Attributes {
  const attributes: Attributes = {};
  for (const [key, value] of Object.entries(outcome ?? {})) {
    if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'string') attributes[`app.outcome.${key}`] = value;
  }
  return attributes;
}
