import type { Declaration } from './bindings';
import type { FunctionDefinition } from './definition';

/** Loads an area module (synchronously: a `require`) and returns the definitions it exports. */
export type AreaLoader = () => readonly FunctionDefinition[];

/**
 * The area's own definition of a declared function. A declaration the area does not define, or
 * defines with another trigger kind, fails loudly, naming the function.
 */
export function definitionIn(declaration: Declaration, load: AreaLoader): FunctionDefinition {
  const found = load().find((definition) => definition.name === declaration.name);
  if (found?.kind !== declaration.kind)
    throw new Error(`The area of ${declaration.name} defines no ${declaration.kind} function by that name`);
  return found;
}

/**
 * The definition the host registers for a declaration: its handler loads the area on the first
 * invocation and from then on calls the area's own handler; `routes` (read by the OpenAPI document
 * and the local host) loads it too (docs/decisions/012-functions-load-their-area-on-first-use.md).
 */
export function deferred(declaration: Declaration, load: AreaLoader): FunctionDefinition {
  let loaded: FunctionDefinition | undefined;
  const real = () => (loaded ??= definitionIn(declaration, load));
  // Every trigger kind's handler takes (trigger input, context): one forwarder serves them all.
  const handler = (input: never, context: never) => (real().options.handler as (input: never, context: never) => unknown)(input, context);
  const options = { ...declaration.options, handler };
  if (declaration.kind !== 'http') return { kind: declaration.kind, name: declaration.name, options } as FunctionDefinition;
  return {
    kind: 'http',
    name: declaration.name,
    options: options as Extract<FunctionDefinition, { kind: 'http' }>['options'],
    get routes() {
      return (real() as Extract<FunctionDefinition, { kind: 'http' }>).routes;
    },
  };
}
