import type { FunctionDefinition } from '../shared/host/definition';
import { authConfigFunctions } from './authConfig';
import { challengeFunctions } from './challenges';
import { clubMasterFunctions } from './clubMaster';
import { clubOverviewFunctions } from './clubOverview';
import { clubFunctions } from './clubs';
import { costFunctions } from './costs';
import { diagnosticsFunctions } from './diagnostics';
import { freshnessFunctions } from './freshness';
import { healthFunctions } from './health';
import { ingestFunctions } from './ingest';
import { notificationFunctions } from './notifications';
import { meFunctions } from './me';
import { openApiFunction } from './openapi';
import { portalFunction } from './portal';
import { memberAppFunction } from './app';
import { notFoundFunction } from './notFound';

/**
 * Every function of the app, in one list, every area loaded. The local host (development/devhost)
 * serves it and the tests read it; the Azure host gets the same functions through
 * functions/registrations.ts, declared up front with each area loaded on its first use.
 * Importing this registers nothing.
 */
const areaFunctions: FunctionDefinition[] = [
  ...healthFunctions,
  ...clubMasterFunctions,
  ...notificationFunctions,
  ...ingestFunctions,
  ...costFunctions,
  ...challengeFunctions,
  ...freshnessFunctions,
  ...diagnosticsFunctions,
  ...clubOverviewFunctions,
  ...meFunctions,
  ...clubFunctions,
  ...authConfigFunctions,
];

export const functionDefinitions: readonly FunctionDefinition[] = [
  ...areaFunctions,
  openApiFunction(() => functionDefinitions),
  // The admin portal's static files (no API routes; docs/portal.md).
  portalFunction(),
  // The member app's static files (no API routes; docs/member-app.md).
  memberAppFunction(),
  // Lowest precedence: any path no group claims answers 404 in problem+json.
  notFoundFunction,
];
