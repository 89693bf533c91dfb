import type { FunctionDefinition } from '../shared/functions/definition';
import { httpGroup } from '../shared/functions/definition';
import { healthFunctions } from './health';
import { openApiFunction } from './openapi';

/**
 * Every function of the app, in one list. The Azure host gets it through functions/index.ts;
 * the local host (scripts/devhost) serves the same list. Importing this registers nothing.
 */
const areaFunctions: FunctionDefinition[] = [...healthFunctions];

export const functionDefinitions: readonly FunctionDefinition[] = [
  ...areaFunctions,
  openApiFunction(() => areaFunctions),
  // Lowest precedence: any path no group claims answers 404 in problem+json.
  httpGroup('notFound', '', []),
];
