/* eslint-disable @typescript-eslint/no-require-imports -- each area loads on its first use, synchronously: see below */
import type { FunctionDefinition } from '../shared/host/definition';
import { deferred, type AreaLoader } from '../shared/host/deferred';
import { recordSignInsWith } from '../shared/auth/signIns';
import { DECLARATIONS, type AreaName } from './declarations';

// Required in one place: the build makes an area entry of each `require('./<area>')` it finds here.
const peopleArea = () => require('./people') as typeof import('./people');

/**
 * A person's first signed-in request with a token records their sign-in (makes or refreshes their
 * profile, docs/clubs.md, People); the people area loads on that first use, not at the cold start.
 */
recordSignInsWith((userId, name) => peopleArea().recordPersonSignIn(userId, name));

/**
 * How each area module of functions/declarations.ts loads: a synchronous `require('./<area>')`,
 * which the bundle keeps a module of its own, loaded on the first invocation of one of its
 * functions (development/build.mjs makes every one an entry of dist/functions/, sharing the
 * modules they have in common, so the database pool, the settings and the telemetry seam exist
 * once; docs/decisions/012-functions-load-their-area-on-first-use.md).
 */
export const areaModules = {
  health: () => (require('./health') as typeof import('./health')).healthFunctions,
  clubMaster: () => (require('./clubMaster') as typeof import('./clubMaster')).clubMasterFunctions,
  notifications: () => (require('./notifications') as typeof import('./notifications')).notificationFunctions,
  ingest: () => (require('./ingest') as typeof import('./ingest')).ingestFunctions,
  costs: () => (require('./costs') as typeof import('./costs')).costFunctions,
  challenges: () => (require('./challenges') as typeof import('./challenges')).challengeFunctions,
  freshness: () => (require('./freshness') as typeof import('./freshness')).freshnessFunctions,
  diagnostics: () => (require('./diagnostics') as typeof import('./diagnostics')).diagnosticsFunctions,
  clubOverview: () => (require('./clubOverview') as typeof import('./clubOverview')).clubOverviewFunctions,
  me: () => (require('./me') as typeof import('./me')).meFunctions,
  people: () => peopleArea().peopleFunctions,
  clubs: () => (require('./clubs') as typeof import('./clubs')).clubFunctions,
  authConfig: () => (require('./authConfig') as typeof import('./authConfig')).authConfigFunctions,
  openapi: () => [(require('./openapi') as typeof import('./openapi')).openApiFunction(() => registrations)],
  portal: () => [(require('./portal') as typeof import('./portal')).portalFunction()],
  app: () => [(require('./app') as typeof import('./app')).memberAppFunction()],
  notFound: () => [(require('./notFound') as typeof import('./notFound')).notFoundFunction],
} satisfies Record<AreaName, AreaLoader>;

/**
 * Every declared function as the deployed app registers it: the host sees them all at start,
 * while each area's code (routes, schemas, services) loads on the first invocation of one of its
 * functions. A cold start then evaluates only the declarations, the settings check and
 * @azure/functions.
 */
export const registrations: readonly FunctionDefinition[] = DECLARATIONS.map(({ area, declaration }) =>
  deferred(declaration, areaModules[area]),
);
