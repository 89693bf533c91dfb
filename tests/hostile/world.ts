import { randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import { generateServiceToken, hashServiceToken } from '../../shared/challenges/serviceCredential';
import { createEdgeToken } from '../../shared/clubMaster/edgeTokens';
import { overrideSettings } from '../../shared/config/settings';
import { getSql } from '../../shared/db/client';
import { makeChallenge } from '../challenges/support';
import { startFake } from '../costs/support';
import { tokenFor } from '../support/tokens';
import type { FakeCostProvider } from '../../development/costsFake/server';
import { pushSettings, startPushWorld, type PushWorld } from '../notifications/push/support';
import type { ResourceRef, SampleRequest } from './authorizationMatrix';

/**
 * The people, clubs, boxes and resources the hostile tests act with, in the database the test
 * file uses. Club A is the target; club B is another club; `owner` holds the resources whose ids
 * the other callers try (a notification, a participation, a pending shooter claim in club A).
 */
export interface World {
  clubA: string;
  clubB: string;
  owner: string;
  notificationId: string;
  challengeId: string;
  participationId: string;
  pendingLinkId: string;
  /** A member of club A whom the removal row removes (no other row needs them). */
  removableMemberId: string;
  /** A user of no club whom the leader row appoints. */
  candidateId: string;
  /** A member of club A whom the operators' erasure row erases (no other row needs them). */
  erasableId: string;
  /** An open invitation of club A. */
  invitationId: string;
  /** A registration of the member (the push registration rows). */
  pushRegistrationId: string;
  /** Plain `Authorization` header values. */
  auth: {
    superuser: string;
    edgeA: string;
    edgeB: string;
    revokedEdge: string;
    service: string;
    forged: string;
  };
  costs?: FakeCostProvider;
  /** Stops the cost provider fake and removes the world's settings. */
  close(): Promise<void>;
}

type Options = { costs?: boolean; push?: boolean };

let sequence = 0;
const id = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${(sequence += 1)}`;

/** Settings the world needs, in force until `restore()`; call before anything reads the settings. */
async function configureWorld(
  options: Options = {},
): Promise<{ serviceToken: string; costs?: FakeCostProvider; push?: PushWorld; restore: () => void }> {
  const serviceToken = generateServiceToken();
  const restores = [overrideSettings({ CHALLENGE_SERVICE_TOKEN_HASH: hashServiceToken(serviceToken) })];
  let costs: FakeCostProvider | undefined;
  if (options.costs) {
    costs = await startFake();
    restores.push(
      overrideSettings({
        INTERNAL_CLOUD_COST_TENANT_ID: 'tenant-1',
        INTERNAL_CLOUD_COST_CLIENT_ID: 'client-1',
        INTERNAL_CLOUD_COST_CLIENT_SECRET: 'Sup3r~S3cret.Value_for-tests-7Q',
        INTERNAL_CLOUD_COST_SUBSCRIPTION_ID: '00000000-0000-0000-0000-000000000000',
        INTERNAL_CLOUD_COST_AUTH_URL: costs.authUrl,
        INTERNAL_CLOUD_COST_API_URL: costs.apiUrl,
      }),
    );
  }
  let push: PushWorld | undefined;
  if (options.push) {
    push = await startPushWorld();
    restores.push(overrideSettings(pushSettings(push)));
  }
  const restore = () => {
    for (const undo of restores.splice(0).reverse()) undo();
  };
  return { serviceToken, ...(costs ? { costs } : {}), ...(push ? { push } : {}), restore };
}

/** Users by role in the world; their ids are what the matrix principals sign tokens for. */
export const PEOPLE = {
  superuser: 'hostile-superuser',
  owner: 'hostile-owner',
  member: 'hostile-member',
  leader: 'hostile-leader',
  otherLeader: 'hostile-other-leader',
  removable: 'hostile-removable',
  candidate: 'hostile-candidate',
  erasable: 'hostile-erasable',
} as const;

export async function buildWorld(options: Options = {}): Promise<World> {
  const { serviceToken, costs, push, restore } = await configureWorld(options);
  const sql = getSql();
  const clubA = id('club-a');
  const clubB = id('club-b');
  await sql`insert into club (id, name, vereins_id) values (${clubA}, 'Club A', '91001'), (${clubB}, 'Club B', '91002')`;
  await sql`
    insert into club_membership (club_id, user_id, role) values
      (${clubA}, ${PEOPLE.owner}, 'member'), (${clubA}, ${PEOPLE.member}, 'member'), (${clubA}, ${PEOPLE.leader}, 'leader'),
      (${clubA}, ${PEOPLE.superuser}, 'leader'), (${clubB}, ${PEOPLE.otherLeader}, 'leader'),
      (${clubA}, ${PEOPLE.removable}, 'member'), (${clubA}, ${PEOPLE.erasable}, 'member')`;
  const [invitation] = await sql<{ id: string }[]>`
    insert into club_invitation (club_id, code_hash, created_by, expires_at)
    values (${clubA}, ${randomBytes(32)}, ${PEOPLE.leader}, now() + interval '7 days') returning id`;
  const [notification] = await sql<{ id: string }[]>`
    insert into notification (user_id, title, kind, source) values (${PEOPLE.owner}, 'For the owner only', 'member', 'test') returning id`;
  const challenge = await makeChallenge({ scope: 'club', clubId: clubA, title: 'Club A only' });
  const [participation] = await sql<{ id: string }[]>`
    insert into challenge_participation (challenge_id, user_id, club_id, rules, reward_xp, deadline_at)
    values (${challenge.id}, ${PEOPLE.owner}, ${clubA}, ${sql.json({ goal: { metric: 'shots', target: 10 }, window: { type: 'participation' } })}, 500,
      now() + interval '30 days')
    returning id`;
  const [link] = await sql<{ id: string }[]>`
    insert into challenge_shooter_link (club_id, user_id, shooter_id, status) values (${clubA}, ${PEOPLE.owner}, 'shooter-1', 'pending') returning id`;
  const [registration] = await sql<{ id: string }[]>`
    insert into push_registration (user_id, platform, address, p256dh, auth)
    values (${PEOPLE.owner}, 'webpush', ${`https://push.example.org/${id('subscription')}`}, 'p256dh', 'auth') returning id::text as id`;
  const edgeA = await createEdgeToken(sql, clubA);
  const edgeB = await createEdgeToken(sql, clubB);
  const revoked = await createEdgeToken(sql, clubA);
  await sql`update edge_token set revoked_at = now() where id = ${revoked.id}`;
  const forged = await new SignJWT({ roles: ['platform_admin'] })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(PEOPLE.superuser)
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode('a-secret-that-is-not-the-services-secret-at-all'));
  const superuser = await tokenFor(PEOPLE.superuser, { roles: ['platform_admin', 'ops_admin', 'billing_admin', 'support_admin'] });
  return {
    clubA,
    clubB,
    owner: PEOPLE.owner,
    notificationId: notification!.id,
    challengeId: challenge.id,
    participationId: participation!.id,
    pendingLinkId: link!.id,
    removableMemberId: PEOPLE.removable,
    candidateId: PEOPLE.candidate,
    erasableId: PEOPLE.erasable,
    invitationId: invitation!.id,
    pushRegistrationId: registration!.id,
    auth: {
      superuser: `Bearer ${superuser}`,
      edgeA: `Bearer ${edgeA.token}`,
      edgeB: `Bearer ${edgeB.token}`,
      revokedEdge: `Bearer ${revoked.token}`,
      service: `Bearer ${serviceToken}`,
      forged: `Bearer ${forged}`,
    },
    ...(costs ? { costs } : {}),
    close: async () => {
      await costs?.close();
      await push?.close();
      restore();
    },
  };
}

export function resolve(text: string, world: World, club: string): string {
  return text.replaceAll('{club}', club).replaceAll('{owner}', world.owner);
}

/** A sample body with `{club}` and `{owner}` filled in. */
export function substitute(value: unknown, world: World, club: string): unknown {
  if (typeof value === 'string') return resolve(value, world, club);
  if (Array.isArray(value)) return value.map((item) => substitute(item, world, club));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, substitute(item, world, club)]));
  }
  return value;
}

/** A matrix row's path and query with its parameters filled in for a caller acting on `club`. */
export function targetOf(path: string, sample: SampleRequest, world: World, club: string): string {
  const ids: Record<ResourceRef, string> = {
    club,
    notification: world.notificationId,
    clubChallenge: world.challengeId,
    participation: world.participationId,
    pendingLink: world.pendingLinkId,
    owner: world.owner,
    removableMember: world.removableMemberId,
    erasable: world.erasableId,
    candidate: world.candidateId,
    invitation: world.invitationId,
    pushRegistration: world.pushRegistrationId,
  };
  const filled = path.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_m, name: string) => {
    const ref = sample.params?.[name] ?? (name === 'clubId' ? 'club' : undefined);
    if (!ref) throw new Error(`The matrix row for ${path} does not say what {${name}} names (request.params).`);
    return encodeURIComponent(ids[ref]);
  });
  const query = new URLSearchParams(
    Object.entries(sample.query ?? {}).map(([key, value]): [string, string] => [key, resolve(value, world, club)]),
  ).toString();
  return query ? `${filled}?${query}` : filled;
}
