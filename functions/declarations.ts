import { declareEventHub, declareGroup, declareStaticSite, declareTimer, type Declaration } from '../shared/host/bindings';

/**
 * Every function of the app, declared once: name, trigger and binding options (route, schedule,
 * Event Hubs binding, retry policy), under the area module that defines its handler
 * (`functions/<area>.ts`), in the order the host registers them. The deployed app registers this
 * list up front, each area's code loaded on first use (functions/registrations.ts); the local host
 * and the tests get it with every area loaded (functions/definitions.ts); each area builds its
 * functions from its own declarations (`declared.<name>`). Importing this loads no area.
 */
export const DECLARED_BY_AREA = {
  health: [declareGroup('health', 'healthz')],
  clubMaster: [
    declareGroup('clubMasterEdge', 'api/edge'),
    declareGroup('clubCatalog', 'api/admin/clubs'),
    declareTimer('clubMasterCleanup', '%CLUB_MASTER_CLEANUP_SCHEDULE%'),
  ],
  notifications: [
    declareGroup('notifications', 'api/notifications'),
    declareGroup('userSettings', 'api/user/settings'),
    declareGroup('userContact', 'api/user/contact'),
    declareGroup('pushRegistrations', 'api/user/push-registrations'),
    declareTimer('notificationDelivery', '%NOTIFY_DELIVERY_SCHEDULE%'),
  ],
  ingest: [
    // Retried per RETRY_POLICIES.eventBatch (exponential, 1 s to 5 min, without end): the host holds the checkpoint while it retries.
    declareEventHub('ingest', {
      eventHubName: '%INGEST_EVENTHUB_NAME%',
      connection: 'INGEST_EVENTHUB_CONNECTION',
      consumerGroup: '%INGEST_EVENTHUB_CONSUMER_GROUP%',
    }),
    declareTimer('ingestHeartbeat', '%INGEST_HEARTBEAT_SCHEDULE%'),
  ],
  costs: [declareGroup('costs', 'api/admin/v1/costs')],
  challenges: [
    declareGroup('challenges', 'api/challenges'),
    // The member's training streak, reckoned from their shot data (docs/challenges.md).
    declareGroup('trainingStreak', 'api/me/streak'),
    declareTimer('challengeProgress', '%CHALLENGE_PROGRESS_SCHEDULE%'),
    // Shots on the board within seconds: drains the shooters ingest queued, apart from the ingest checkpoint.
    declareTimer('challengeProgressDrain', '%CHALLENGE_PROGRESS_DRAIN_SCHEDULE%'),
    declareTimer('challengeExpiry', '%CHALLENGE_EXPIRY_SCHEDULE%'),
  ],
  freshness: [
    declareGroup('trainingPlan', 'api/admin/clubs/{clubId}/training-plan'),
    declareGroup('freshnessHistory', 'api/admin/clubs/{clubId}/freshness-history'),
    declareGroup('starterlists', 'api/edge/starterlists'),
    declareTimer('freshnessCheck', '%FRESHNESS_SCHEDULE%'),
  ],
  diagnostics: [declareGroup('diagnostics', 'api/admin/diagnostics')],
  clubOverview: [declareGroup('clubOverview', 'api/admin/clubs/{clubId}/overview')],
  me: [declareGroup('me', 'api/me')],
  people: [declareGroup('people', 'api/admin/people')],
  clubs: [declareGroup('clubs', 'api/clubs')],
  authConfig: [declareGroup('authConfig', 'api/auth/config')],
  openapi: [declareGroup('openapi', 'api/openapi.json')],
  // The admin portal's static files (no API routes; docs/portal.md). Not `/admin/`: the Azure host reserves routes starting with admin.
  portal: [declareStaticSite('portal', 'portal')],
  // The member app's static files (no API routes; docs/member-app.md).
  app: [declareStaticSite('memberApp', 'app')],
  // Lowest precedence: any path no group claims answers 404 in problem+json.
  notFound: [declareGroup('notFound', '')],
} as const;

/** An area module of functions/, by its file name. */
export type AreaName = keyof typeof DECLARED_BY_AREA;

type Declared = (typeof DECLARED_BY_AREA)[AreaName][number];

/** Each declared function by its name, for the area that defines it. */
export const declared = Object.fromEntries(Object.values(DECLARED_BY_AREA).flatMap((list) => list.map((item) => [item.name, item]))) as {
  readonly [D in Declared as D['name']]: D;
};

/** Every declaration with its area, in registration order. */
export const DECLARATIONS: readonly { area: AreaName; declaration: Declaration }[] = Object.entries(DECLARED_BY_AREA).flatMap(
  ([area, list]) => list.map((declaration: Declaration) => ({ area: area as AreaName, declaration })),
);
