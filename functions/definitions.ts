import type { FunctionDefinition } from '../shared/host/definition';
import { definitionIn } from '../shared/host/deferred';
import { DECLARATIONS } from './declarations';
import { areaModules } from './registrations';

/**
 * Every function of functions/declarations.ts, every area loaded now: the local host
 * (development/devhost) serves this list and the tests read it; the Azure host gets the same
 * functions through functions/registrations.ts, each area loaded on its first use. Importing this
 * registers nothing.
 */
export const functionDefinitions: readonly FunctionDefinition[] = DECLARATIONS.map(({ area, declaration }) =>
  definitionIn(declaration, areaModules[area]),
);
