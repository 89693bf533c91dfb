/* eslint-disable @typescript-eslint/no-require-imports -- each area loads on its first use, synchronously: see below */
import type { FunctionDefinition } from '../shared/host/definition';
import { declareGroup, declareTimer, deferred, type AreaLoader, type Declaration } from '../shared/host/deferred';
import { RETRY_POLICIES } from '../shared/host/bindings';

/**
 * Every function of functions/definitions.ts, in the same order and with the same triggers, as
 * the deployed app registers them: declared here, so the host sees them all at start, while each
 * area's code (routes, schemas, services) loads on the first invocation of one of its functions
 * (docs/decisions/012-functions-load-their-area-on-first-use.md). A cold start then evaluates only
 * this list, the settings check and @azure/functions.
 *
 * Each `require('./<area>')` below is an area module of its own in the bundle (development/build.mjs
 * makes every one an entry of dist/functions/, sharing the modules they have in common, so the
 * database pool, the settings and the telemetry seam exist once). tests/functions/registrations.unit.test.ts
 * proves this list and functions/definitions.ts declare the same functions.
 */
const area = {
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
  clubs: () => (require('./clubs') as typeof import('./clubs')).clubFunctions,
  authConfig: () => (require('./authConfig') as typeof import('./authConfig')).authConfigFunctions,
  openapi: () => [(require('./openapi') as typeof import('./openapi')).openApiFunction(() => registrations)],
  portal: () => [(require('./portal') as typeof import('./portal')).portalFunction()],
  memberApp: () => [(require('./app') as typeof import('./app')).memberAppFunction()],
  notFound: () => [(require('./notFound') as typeof import('./notFound')).notFoundFunction],
} satisfies Record<string, AreaLoader>;

/** The static web apps' functions (functions/staticSite.ts): their files only, GET and HEAD. */
const staticSite = (name: string, mount: string): Declaration => ({
  kind: 'http',
  name,
  options: { route: `${mount}/{*rest}`, methods: ['GET', 'HEAD'], authLevel: 'anonymous' },
});

const declared: [Declaration, AreaLoader][] = [
  [declareGroup('health', 'healthz'), area.health],
  [declareGroup('clubMasterEdge', 'api/edge'), area.clubMaster],
  [declareGroup('clubCatalog', 'api/admin/clubs'), area.clubMaster],
  [declareTimer('clubMasterCleanup', '%CLUB_MASTER_CLEANUP_SCHEDULE%'), area.clubMaster],
  [declareGroup('notifications', 'api/notifications'), area.notifications],
  [declareGroup('userSettings', 'api/user/settings'), area.notifications],
  [declareGroup('userContact', 'api/user/contact'), area.notifications],
  [declareGroup('pushRegistrations', 'api/user/push-registrations'), area.notifications],
  [declareTimer('notificationDelivery', '%NOTIFY_DELIVERY_SCHEDULE%'), area.notifications],
  [
    {
      kind: 'eventHub',
      name: 'ingest',
      options: {
        eventHubName: '%INGEST_EVENTHUB_NAME%',
        connection: 'INGEST_EVENTHUB_CONNECTION',
        consumerGroup: '%INGEST_EVENTHUB_CONSUMER_GROUP%',
        cardinality: 'many',
        retry: RETRY_POLICIES.eventBatch,
      },
    },
    area.ingest,
  ],
  [declareTimer('ingestHeartbeat', '%INGEST_HEARTBEAT_SCHEDULE%'), area.ingest],
  [declareGroup('costs', 'api/admin/v1/costs'), area.costs],
  [declareGroup('challenges', 'api/challenges'), area.challenges],
  [declareTimer('challengeProgress', '%CHALLENGE_PROGRESS_SCHEDULE%'), area.challenges],
  [declareTimer('challengeExpiry', '%CHALLENGE_EXPIRY_SCHEDULE%'), area.challenges],
  [declareGroup('trainingPlan', 'api/admin/clubs/{clubId}/training-plan'), area.freshness],
  [declareGroup('freshnessHistory', 'api/admin/clubs/{clubId}/freshness-history'), area.freshness],
  [declareGroup('starterlists', 'api/edge/starterlists'), area.freshness],
  [declareTimer('freshnessCheck', '%FRESHNESS_SCHEDULE%'), area.freshness],
  [declareGroup('diagnostics', 'api/admin/diagnostics'), area.diagnostics],
  [declareGroup('clubOverview', 'api/admin/clubs/{clubId}/overview'), area.clubOverview],
  [declareGroup('me', 'api/me'), area.me],
  [declareGroup('clubs', 'api/clubs'), area.clubs],
  [declareGroup('authConfig', 'api/auth/config'), area.authConfig],
  [declareGroup('openapi', 'api/openapi.json'), area.openapi],
  [staticSite('portal', 'portal'), area.portal],
  [staticSite('memberApp', 'app'), area.memberApp],
  [declareGroup('notFound', ''), area.notFound],
];

export const registrations: readonly FunctionDefinition[] = declared.map(([declaration, load]) => deferred(declaration, load));
