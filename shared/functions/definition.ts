import type {
  EventHubFunctionOptions,
  HttpFunctionOptions,
  InvocationContext,
  Timer,
  TimerFunctionOptions,
} from '@azure/functions';
import { getSettings } from '../config/settings';
import { createDispatcher } from '../http/dispatch';
import type { Route } from '../http/route';
import { createLogger, invocationSink, type Logger } from '../log/logger';

/**
 * One function of the app, as data. functions/index.ts hands each to `app.http` / `app.timer` /
 * `app.eventHub` for the Azure host; the local host serves the very same list.
 */
export type FunctionDefinition =
  | { kind: 'http'; name: string; options: HttpFunctionOptions; routes: readonly Route[] }
  | { kind: 'timer'; name: string; options: TimerFunctionOptions }
  | { kind: 'eventHub'; name: string; options: EventHubFunctionOptions };

const ALL_METHODS: HttpFunctionOptions['methods'] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];

/**
 * One HTTP function for an endpoint group. The function accepts every method on `prefix` and
 * below so that the group itself answers 404 and 405 in problem+json.
 */
export function httpGroup(name: string, prefix: string, routes: readonly Route[]): FunctionDefinition {
  const route = prefix ? `${prefix}/{*rest}` : '{*rest}';
  return {
    kind: 'http',
    name,
    routes,
    options: { route, methods: ALL_METHODS, authLevel: 'anonymous', handler: createDispatcher(routes) },
  };
}

export interface JobContext {
  log: Logger;
  invocationId: string;
}

function jobLogger(context: InvocationContext, functionName: string): Logger {
  return createLogger({ sink: invocationSink(context), minLevel: getSettings().LOG_LEVEL }).with({
    function: functionName,
    invocationId: context.invocationId,
  });
}

/**
 * A timer function. `schedule` is NCRONTAB (`{second} {minute} {hour} {day} {month} {weekday}`)
 * or a `%SETTING%` expression. Failures are logged and rethrown so the host records the
 * invocation as failed (and retries per policy) instead of pretending it succeeded.
 */
export function timerFunction(
  name: string,
  schedule: string,
  run: (job: JobContext, timer: Timer) => Promise<Record<string, unknown> | void>,
): FunctionDefinition {
  return {
    kind: 'timer',
    name,
    options: {
      schedule,
      handler: async (timer, context) => {
        const log = jobLogger(context, name);
        const started = performance.now();
        try {
          const outcome = await run({ log, invocationId: context.invocationId }, timer);
          log.info('timer_completed', { durationMs: Math.round(performance.now() - started), ...(outcome ?? {}) });
        } catch (error) {
          log.error('timer_failed', { durationMs: Math.round(performance.now() - started), error });
          throw error;
        }
      },
    },
  };
}

/**
 * An Event Hubs function receiving batches (`cardinality: 'many'`). An error is rethrown so the
 * batch is not checkpointed as done.
 */
export function eventHubFunction(
  name: string,
  options: { eventHubName: string; connection: string; consumerGroup?: string },
  run: (job: JobContext, messages: unknown[], context: InvocationContext) => Promise<Record<string, unknown> | void>,
): FunctionDefinition {
  return {
    kind: 'eventHub',
    name,
    options: {
      ...options,
      cardinality: 'many',
      handler: async (messages, context) => {
        const log = jobLogger(context, name);
        const batch = Array.isArray(messages) ? messages : [messages];
        try {
          const outcome = await run({ log, invocationId: context.invocationId }, batch, context);
          log.info('event_batch_completed', { size: batch.length, ...(outcome ?? {}) });
        } catch (error) {
          log.error('event_batch_failed', { size: batch.length, error });
          throw error;
        }
      },
    },
  };
}
