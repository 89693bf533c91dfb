/**
 * Who may call what: one row per route of the route tables (functions/definitions.ts), one
 * expected outcome per caller. tests/hostile/authorizationMatrix.e2e.test.ts sends each row's
 * request as each caller and fails for a route without a row and for a row without a route.
 *
 * Outcomes are the guard's (or the handler's authorization) answer:
 * - 'allowed': anything but 401 and 403 (the request got past authorization; 200, 400, 404, 409...)
 * - 401: no usable credential for this route
 * - 403: a known caller without the right
 * - 404: the resource is someone else's and is not even shown to exist
 *
 * Every caller acts on club A unless noted; the ids in a path name resources of `owner`, a member
 * of club A who is none of the callers (docs/testing-hostile.md explains how to add a row).
 */
export const PRINCIPALS = [
  /** No Authorization header. */
  'anonymous',
  /** A platform_admin token signed with another secret. */
  'forgedToken',
  /** An authenticated user with no platform role and no club. */
  'user',
  'platform_admin',
  'ops_admin',
  'billing_admin',
  'support_admin',
  /** A member of club A. */
  'clubMember',
  /** A leader of club A. */
  'clubLeader',
  /** A leader of club B, acting on club A. */
  'otherClubLeader',
  /** The leader of club B, naming its own club B in the path but a resource of club A. */
  'otherClubLeaderOwnClub',
  /** The edge token of club A's box. */
  'edgeBox',
  /** A revoked edge token of club A's box. */
  'revokedEdgeBox',
  /** The challenges personalization service credential. */
  'service',
] as const;
export type Principal = (typeof PRINCIPALS)[number];

export type Outcome = 'allowed' | 401 | 403 | 404;
export type Expectations = Record<Principal, Outcome>;

/** What a path parameter names: the caller's target club, or one of `owner`'s resources in club A. */
export type ResourceRef =
  | 'club'
  | 'notification'
  | 'clubChallenge'
  | 'participation'
  | 'pendingLink'
  | 'owner'
  | 'removableMember'
  | 'candidate'
  | 'invitation'
  | 'pushRegistration'
  | 'erasable';

/**
 * The request a row sends. Path parameters default by name (clubId: the caller's target club;
 * id: see `params`). In query and body strings `{club}` becomes the caller's target club id and
 * `{owner}` the owner's user id.
 */
export interface SampleRequest {
  params?: Record<string, ResourceRef>;
  query?: Record<string, string>;
  body?: unknown;
}

export interface MatrixRow {
  expect: Expectations;
  request?: SampleRequest;
  /** The row erases its callers' own data (DELETE /api/me): it runs after every other row needed them. */
  runsLast?: true;
}

// Callers that are not a user of the service: every user route answers them 401.
const NOT_A_USER = { anonymous: 401, forgedToken: 401, edgeBox: 401, revokedEdgeBox: 401, service: 401 } as const;
const EVERY_USER = {
  user: 'allowed',
  platform_admin: 'allowed',
  ops_admin: 'allowed',
  billing_admin: 'allowed',
  support_admin: 'allowed',
  clubMember: 'allowed',
  clubLeader: 'allowed',
  otherClubLeader: 'allowed',
  otherClubLeaderOwnClub: 'allowed',
} as const;
const NO_USER = {
  user: 403,
  platform_admin: 403,
  ops_admin: 403,
  billing_admin: 403,
  support_admin: 403,
  clubMember: 403,
  clubLeader: 403,
  otherClubLeader: 403,
  otherClubLeaderOwnClub: 403,
} as const;

/** Anyone, with or without a credential. */
const PUBLIC: Expectations = {
  anonymous: 'allowed',
  forgedToken: 'allowed',
  edgeBox: 'allowed',
  revokedEdgeBox: 'allowed',
  service: 'allowed',
  ...EVERY_USER,
};
/** Any authenticated user. */
const ANY_USER: Expectations = { ...NOT_A_USER, ...EVERY_USER };
/** Someone else's resource: every user is told it does not exist. */
const OWNER_ONLY: Expectations = {
  ...NOT_A_USER,
  user: 404,
  platform_admin: 404,
  ops_admin: 404,
  billing_admin: 404,
  support_admin: 404,
  clubMember: 404,
  clubLeader: 404,
  otherClubLeader: 404,
  otherClubLeaderOwnClub: 404,
};
/** Only the platform_admin role (platform.admin, clubs.manage or diagnostics.read). */
const PLATFORM_ADMIN: Expectations = { ...NOT_A_USER, ...NO_USER, platform_admin: 'allowed' };
/** costs.read: platform_admin, ops_admin, billing_admin. */
const COSTS_READ: Expectations = { ...PLATFORM_ADMIN, ops_admin: 'allowed', billing_admin: 'allowed' };
/** clubRole leader of the path's club, or clubs.manage. */
const CLUB_LEADER_OR_MANAGER: Expectations = {
  ...PLATFORM_ADMIN,
  clubLeader: 'allowed',
  otherClubLeaderOwnClub: 'allowed',
};
const USER_TOKEN_NOT_ACCEPTED = {
  user: 401,
  platform_admin: 401,
  ops_admin: 401,
  billing_admin: 401,
  support_admin: 401,
  clubMember: 401,
  clubLeader: 401,
  otherClubLeader: 401,
  otherClubLeaderOwnClub: 401,
} as const;
/** Only an on-site box with a valid edge token: a user's token is no credential here. */
const EDGE_BOX: Expectations = { ...NOT_A_USER, ...USER_TOKEN_NOT_ACCEPTED, edgeBox: 'allowed' };
/** Only the personalization service. */
const SERVICE_ONLY: Expectations = { ...EDGE_BOX, edgeBox: 401, service: 'allowed' };

const clubChallengeBody = {
  scope: 'club',
  clubId: '{club}',
  title: 'Matrix challenge',
  difficulty: 'easy',
  durationDays: 7,
  rulesJson: { goal: { metric: 'shots', target: 10 } },
};

export const AUTHORIZATION_MATRIX: Record<string, MatrixRow> = {
  'GET /healthz': { expect: PUBLIC },
  'GET /api/auth/config': { expect: PUBLIC },
  'GET /healthz/data-freshness': { expect: PUBLIC },
  'GET /api/openapi.json': { expect: PUBLIC },
  // optionalUser: a credential, when sent, must be a valid user token.
  'GET /healthz/ingest': { expect: { ...ANY_USER, anonymous: 'allowed' } },

  'POST /api/edge/clubs/sync': { expect: EDGE_BOX, request: { body: { clubs: [{ vereinsId: '91001', name: 'Club A' }] } } },
  'POST /api/edge/starterlists': { expect: EDGE_BOX, request: { body: { starterlists: [] } } },

  'GET /api/admin/clubs': { expect: PLATFORM_ADMIN },
  'POST /api/admin/clubs/adopt': { expect: PLATFORM_ADMIN, request: { body: { vereinsId: '91001' } } },
  'GET /api/admin/diagnostics/summary': { expect: PLATFORM_ADMIN },
  // diagnostics.read or clubs.manage: platform_admin alone holds either; a leader of the club is no operator.
  'GET /api/admin/clubs/{clubId}/overview': { expect: PLATFORM_ADMIN },

  'GET /api/admin/v1/costs/status': { expect: COSTS_READ },
  'GET /api/admin/v1/costs/summary': { expect: COSTS_READ },
  'GET /api/admin/v1/costs/breakdown': { expect: COSTS_READ },
  'GET /api/admin/v1/costs/timeseries': { expect: COSTS_READ },
  'GET /api/admin/v1/costs/accumulated': { expect: COSTS_READ },
  'GET /api/admin/v1/costs/export.csv': { expect: COSTS_READ },

  'GET /api/me': { expect: ANY_USER },
  'DELETE /api/me': { expect: ANY_USER, runsLast: true },
  'GET /api/me/profile': { expect: ANY_USER },
  'PUT /api/me/profile': { expect: ANY_USER, request: { body: { language: 'de' } } },
  // The operators' people lookup (clubs.manage) for appointing leaders.
  'GET /api/admin/people': { expect: PLATFORM_ADMIN, request: { query: { query: 'hostile' } } },
  // The operators' erasure of a person who asked by letter (clubs.manage): a member of club A no other row needs.
  'DELETE /api/admin/people/{userId}': { expect: PLATFORM_ADMIN, request: { params: { userId: 'erasable' } } },
  'GET /api/me/streak': { expect: ANY_USER },

  'GET /api/notifications': { expect: ANY_USER },
  'DELETE /api/notifications': { expect: ANY_USER },
  'POST /api/notifications/clear': { expect: ANY_USER },
  'POST /api/notifications/read-all': { expect: ANY_USER },
  'PATCH /api/notifications/read-all': { expect: ANY_USER },
  'POST /api/notifications/{id}/read': { expect: OWNER_ONLY, request: { params: { id: 'notification' } } },
  'PATCH /api/notifications/{id}/read': { expect: OWNER_ONLY, request: { params: { id: 'notification' } } },
  'DELETE /api/notifications/{id}': { expect: OWNER_ONLY, request: { params: { id: 'notification' } } },
  'GET /api/notifications/{id}/deliveries': { expect: OWNER_ONLY, request: { params: { id: 'notification' } } },
  // The signed token in the link is the only proof (RFC 8058: the mail provider sends no credentials).
  'POST /api/notifications/unsubscribe': { expect: PUBLIC, request: { query: { token: 'not-a-token' } } },
  'POST /api/notifications/{id}/delete': { expect: OWNER_ONLY, request: { params: { id: 'notification' } } },

  'GET /api/user/settings': { expect: ANY_USER },
  'PUT /api/user/settings': { expect: ANY_USER, request: { body: { emailEnabled: false } } },
  'PATCH /api/user/settings': { expect: ANY_USER, request: { body: { pushEnabled: false } } },
  'GET /api/user/contact': { expect: ANY_USER },
  'GET /api/user/push-registrations': { expect: ANY_USER },
  'GET /api/user/push-registrations/web-push-key': { expect: ANY_USER },
  'POST /api/user/push-registrations': {
    expect: ANY_USER,
    request: { body: { platform: 'fcmv1', deviceToken: 'matrix-device-token-0123456789' } },
  },
  'DELETE /api/user/push-registrations/{id}': { expect: OWNER_ONLY, request: { params: { id: 'pushRegistration' } } },
  'PUT /api/user/contact': { expect: ANY_USER, request: { body: { email: 'member@example.org', language: 'en' } } },
  // A token is only ever the caller's own: another member's link answers 400 like a made-up one.
  'POST /api/user/contact/confirmations': { expect: ANY_USER, request: { body: { token: 'not-a-link' } } },

  'GET /api/challenges': { expect: ANY_USER },
  // Platform admins create any scope; a leader only club challenges of their own club.
  'POST /api/challenges': {
    expect: { ...PLATFORM_ADMIN, clubLeader: 'allowed', otherClubLeaderOwnClub: 'allowed' },
    request: { body: clubChallengeBody },
  },
  // Another user's achievements: platform admins only.
  'GET /api/challenges/achievements': { expect: PLATFORM_ADMIN, request: { query: { userId: '{owner}' } } },
  'GET /api/challenges/sharing-preferences': { expect: ANY_USER },
  'PUT /api/challenges/sharing-preferences': { expect: ANY_USER, request: { body: { shareWithinClub: false, shareGlobally: false } } },
  'POST /api/challenges/personalize': { expect: SERVICE_ONLY, request: { body: { userId: '{owner}', metric: 'shots' } } },
  'POST /api/challenges/seasons': { expect: PLATFORM_ADMIN, request: { body: { name: 'Matrix season' } } },
  // Club A's challenge: visible to its members (and platform admins), not found for anyone else.
  'GET /api/challenges/{id}/leaderboard': {
    expect: { ...OWNER_ONLY, platform_admin: 'allowed', clubMember: 'allowed', clubLeader: 'allowed' },
    request: { params: { id: 'clubChallenge' } },
  },
  'POST /api/challenges/{id}/join': {
    expect: { ...OWNER_ONLY, clubMember: 'allowed', clubLeader: 'allowed' },
    request: { params: { id: 'clubChallenge' } },
  },
  'PATCH /api/challenges/participations/{id}/visibility': {
    expect: OWNER_ONLY,
    request: { params: { id: 'participation' }, body: { shareGlobally: true } },
  },
  // A claim needs a membership in the claimed club.
  'POST /api/challenges/shooter-links': {
    expect: { ...NOT_A_USER, ...NO_USER, clubMember: 'allowed', clubLeader: 'allowed', otherClubLeaderOwnClub: 'allowed' },
    request: { body: { clubId: '{club}', shooterId: 'matrix-shooter' } },
  },
  'GET /api/challenges/shooter-links': { expect: ANY_USER },
  // For oneself only: the body has no userId to name anyone else.
  'POST /api/challenges/personalize/me': { expect: ANY_USER, request: { body: { metric: 'shots' } } },
  'POST /api/challenges/participations/{id}/leave': { expect: OWNER_ONLY, request: { params: { id: 'participation' } } },
  // A club ladder: the club's members and platform admins.
  'GET /api/challenges/ladder': {
    expect: { ...PLATFORM_ADMIN, clubMember: 'allowed', clubLeader: 'allowed', otherClubLeaderOwnClub: 'allowed' },
    request: { query: { scope: 'club', clubId: '{club}' } },
  },
  'GET /api/challenges/badge-preferences': { expect: ANY_USER },
  'PUT /api/challenges/badge-preferences': { expect: ANY_USER, request: { body: { showPrivateBadges: true } } },
  // Anyone may ask; the answer holds only the badges, XP and tier the caller may see (tests/challenges/memberRoutes.e2e.test.ts).
  'GET /api/challenges/members/{userId}/badges': { expect: ANY_USER, request: { params: { userId: 'owner' } } },
  'GET /api/challenges/clubs/{clubId}/shooter-links': { expect: CLUB_LEADER_OR_MANAGER },
  // Club B's leader naming club B cannot decide club A's claim: 404.
  'POST /api/challenges/clubs/{clubId}/shooter-links/{linkId}/confirm': {
    expect: { ...CLUB_LEADER_OR_MANAGER, otherClubLeaderOwnClub: 404 },
    request: { params: { linkId: 'pendingLink' } },
  },
  'POST /api/challenges/clubs/{clubId}/shooter-links/{linkId}/reject': {
    expect: { ...CLUB_LEADER_OR_MANAGER, otherClubLeaderOwnClub: 404 },
    request: { params: { linkId: 'pendingLink' } },
  },

  'GET /api/admin/clubs/{clubId}/training-plan': { expect: CLUB_LEADER_OR_MANAGER },
  'PUT /api/admin/clubs/{clubId}/training-plan': {
    expect: CLUB_LEADER_OR_MANAGER,
    request: { body: { evenings: [{ weekday: 'wednesday', start: '18:00', end: '20:00' }] } },
  },
  'GET /api/admin/clubs/{clubId}/freshness-history': { expect: CLUB_LEADER_OR_MANAGER },

  'GET /api/clubs/mine': { expect: ANY_USER },
  // Platform admins (clubs.manage) appoint leaders; club leaders cannot appoint one another.
  'PUT /api/clubs/{clubId}/leaders/{userId}': { expect: PLATFORM_ADMIN, request: { params: { userId: 'candidate' } } },
  // Undoing an appointment: the club's leaders or clubs.manage; a candidate who is no leader (any
  // more) is 404 and the last leader 409, both past authorization.
  'DELETE /api/clubs/{clubId}/leaders/{userId}': { expect: CLUB_LEADER_OR_MANAGER, request: { params: { userId: 'candidate' } } },
  'GET /api/clubs/{clubId}/members': { expect: CLUB_LEADER_OR_MANAGER },
  // The first allowed caller removes the member; later ones find no such member (404, still past authorization).
  'DELETE /api/clubs/{clubId}/members/{userId}': { expect: CLUB_LEADER_OR_MANAGER, request: { params: { userId: 'removableMember' } } },
  'POST /api/clubs/{clubId}/invitations': { expect: CLUB_LEADER_OR_MANAGER, request: { body: { expiresInHours: 1 } } },
  'GET /api/clubs/{clubId}/invitations': { expect: CLUB_LEADER_OR_MANAGER },
  // Club B's leader naming club B cannot revoke club A's invitation: 404.
  'DELETE /api/clubs/{clubId}/invitations/{invitationId}': {
    expect: { ...CLUB_LEADER_OR_MANAGER, otherClubLeaderOwnClub: 404 },
    request: { params: { invitationId: 'invitation' } },
  },
  // Any signed-in user may present a code; an unknown one is 404 (past authorization).
  'POST /api/clubs/invitations/accept': { expect: ANY_USER, request: { body: { code: 'AAAA-BBBB-CCCC-DDDD' } } },
  // Only the club's members leave it (platform admins are no members). This route is the last of
  // its group, so the member and the leader leaving club A changes no other row.
  'POST /api/clubs/{clubId}/leave': {
    expect: { ...NOT_A_USER, ...NO_USER, clubMember: 'allowed', clubLeader: 'allowed', otherClubLeaderOwnClub: 'allowed' },
  },
};
