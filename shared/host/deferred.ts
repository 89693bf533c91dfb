import type { EventHubFunctionOptions, HttpFunctionOptions, TimerFunctionOptions } from '@azure/functions';
import { groupBinding, RETRY_POLICIES } from './bindings';
import type { FunctionDefinition } from './definition';

/**
 * A function as the host must see it at start (kind, name, trigger binding), without its handler.
 * The handler, and for an endpoint group its routes, come from the function's area module on the
 * first invocation (docs/decisions/012-functions-load-their-area-on-first-use.md).
 */
export type Declaration =
  | { kind: 'http'; name: string; options: Omit<HttpFunctionOptions, 'handler'> }
  | { kind: 'timer'; name: string; options: Omit<TimerFunctionOptions, 'handler'> }
  | { kind: 'eventHub'; name: string; options: Omit<EventHubFunctionOptions, 'handler'> };

/** Loads an area module (synchronously: a `require`) and returns the definitions it exports. */
export type AreaLoader = () => readonly FunctionDefinition[];

/** An endpoint group, bound as shared/host/definition.ts httpGroup binds it. */
export const declareGroup = (name: string, prefix: string): Declaration => ({ kind: 'http', name, options: groupBinding(prefix) });

/** A timer on a `%SETTING%` schedule, with the retry policy timerFunction gives it by default. */
export const declareTimer = (name: string, schedule: string): Declaration => ({
  kind: 'timer',
  name,
  options: { schedule, retry: RETRY_POLICIES.timer },
});

/**
 * The definition the host registers for a declaration: its handler loads the area on the first
 * invocation and from then on calls the area's own handler; `routes` (read by the OpenAPI document
 * and the local host) loads it too. A declaration the area does not define, or defines with another
 * trigger kind, fails that first use loudly; tests/functions/registrations.unit.test.ts keeps the
 * two in step.
 */
export function deferred(declaration: Declaration, load: AreaLoader): FunctionDefinition {
  let loaded: FunctionDefinition | undefined;
  const real = (): FunctionDefinition => {
    if (loaded) return loaded;
    const found = load().find((definition) => definition.name === declaration.name);
    if (found?.kind !== declaration.kind)
      throw new Error(`The area of ${declaration.name} defines no ${declaration.kind} function by that name`);
    return (loaded = found);
  };
  switch (declaration.kind) {
    case 'http':
      return {
        kind: 'http',
        name: declaration.name,
        options: {
          ...declaration.options,
          handler: (request, context) => (real().options as HttpFunctionOptions).handler(request, context),
        },
        get routes() {
          return (real() as Extract<FunctionDefinition, { kind: 'http' }>).routes;
        },
      };
    case 'timer':
      return {
        kind: 'timer',
        name: declaration.name,
        options: { ...declaration.options, handler: (timer, context) => (real().options as TimerFunctionOptions).handler(timer, context) },
      };
    case 'eventHub':
      return {
        kind: 'eventHub',
        name: declaration.name,
        options: {
          ...declaration.options,
          handler: (messages, context) => (real().options as EventHubFunctionOptions).handler(messages, context),
        },
      };
  }
}
