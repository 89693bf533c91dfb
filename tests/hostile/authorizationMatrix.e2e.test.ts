import { functionDefinitions } from '../../functions/definitions';
import { getSql } from '../../shared/db/client';
import { changedTables, usePrivateDatabase, watchFingerprint, type FingerprintWatch, type PrivateDatabase } from '../support/dbFingerprint';
import { sendRaw } from '../support/hostileClient';
import { useTestHost } from '../support/testHost';
import { tokenFor } from '../support/tokens';
import { AUTHORIZATION_MATRIX, PRINCIPALS, type Outcome, type Principal } from './authorizationMatrix';
import { buildWorld, PEOPLE, substitute, targetOf, type World } from './world';

/**
 * The authorization matrix (tests/hostile/authorizationMatrix.ts) against the routes the app
 * really has: every route × every caller → the expected outcome, and a refused caller changes no
 * row (IDOR attempts on another user's notification, participation and another club's claims
 * included).
 */
const declaredKeys = functionDefinitions
  .flatMap((definition) => (definition.kind === 'http' ? definition.routes : []))
  .map((route) => `${route.method} ${route.path}`);
// A row that erases its callers goes after every row that needs them (the sort is stable).
const routeKeys = [...declaredKeys].sort(
  (a, b) => Number(AUTHORIZATION_MATRIX[a]?.runsLast ?? false) - Number(AUTHORIZATION_MATRIX[b]?.runsLast ?? false),
);

interface Caller {
  authorization?: string;
  /** The club the caller names in paths and bodies. */
  club: 'A' | 'B';
}

async function callers(world: World): Promise<Record<Principal, Caller>> {
  const user = async (sub: string, roles: string[] = []) => `Bearer ${await tokenFor(sub, { roles })}`;
  return {
    anonymous: { club: 'A' },
    forgedToken: { authorization: world.auth.forged, club: 'A' },
    user: { authorization: await user('hostile-user'), club: 'A' },
    platform_admin: { authorization: await user('hostile-platform-admin', ['platform_admin']), club: 'A' },
    ops_admin: { authorization: await user('hostile-ops-admin', ['ops_admin']), club: 'A' },
    billing_admin: { authorization: await user('hostile-billing-admin', ['billing_admin']), club: 'A' },
    support_admin: { authorization: await user('hostile-support-admin', ['support_admin']), club: 'A' },
    clubMember: { authorization: await user(PEOPLE.member), club: 'A' },
    clubLeader: { authorization: await user(PEOPLE.leader), club: 'A' },
    otherClubLeader: { authorization: await user(PEOPLE.otherLeader), club: 'A' },
    otherClubLeaderOwnClub: { authorization: await user(PEOPLE.otherLeader), club: 'B' },
    edgeBox: { authorization: world.auth.edgeA, club: 'A' },
    revokedEdgeBox: { authorization: world.auth.revokedEdge, club: 'A' },
    service: { authorization: world.auth.service, club: 'A' },
  };
}

function meets(status: number, expected: Outcome): boolean {
  return expected === 'allowed' ? status !== 401 && status !== 403 && status < 500 : status === expected;
}

describe('the authorization matrix', () => {
  let database: PrivateDatabase;
  let fingerprints: FingerprintWatch;
  let world: World;
  let as: Record<Principal, Caller>;

  beforeAll(async () => {
    database = await usePrivateDatabase('authz');
    world = await buildWorld({ costs: true, push: true });
  }, 60_000);
  const host = useTestHost();
  beforeAll(async () => {
    as = await callers(world);
    fingerprints = await watchFingerprint(getSql());
  });

  afterAll(async () => {
    await world?.close();
    await database?.drop();
  });

  it('has a row for every route, and a route for every row', () => {
    const rows = Object.keys(AUTHORIZATION_MATRIX);
    expect({ routesWithoutRow: routeKeys.filter((key) => !rows.includes(key)) }).toEqual({ routesWithoutRow: [] });
    expect({ rowsWithoutRoute: rows.filter((key) => !routeKeys.includes(key)) }).toEqual({ rowsWithoutRoute: [] });
  });

  it.each(routeKeys.filter((key) => key in AUTHORIZATION_MATRIX))('%s', async (key) => {
    const row = AUTHORIZATION_MATRIX[key]!;
    const [method = '', path = ''] = key.split(' ');
    const mismatches: string[] = [];
    for (const principal of PRINCIPALS) {
      const caller = as[principal];
      const club = caller.club === 'A' ? world.clubA : world.clubB;
      const sample = row.request ?? {};
      const headers: Record<string, string> = {};
      if (caller.authorization) headers['authorization'] = caller.authorization;
      let body: string | undefined;
      if (sample.body !== undefined) {
        body = JSON.stringify(substitute(sample.body, world, club));
        headers['content-type'] = 'application/json';
      }
      const expected = row.expect[principal];
      const before = await fingerprints.current();
      const answer = await sendRaw(host.url, { method, path: targetOf(path, sample, world, club), headers, body });
      if (!meets(answer.status, expected)) {
        mismatches.push(`${principal}: expected ${expected}, got ${answer.status} ${answer.body.slice(0, 200)}`);
      } else if (expected !== 'allowed') {
        const changed = changedTables(before, await fingerprints.current());
        if (changed.length) mismatches.push(`${principal}: refused with ${answer.status} but changed ${changed.join(', ')}`);
      }
    }
    expect(mismatches).toEqual([]);
  });

  it("keeps one box's report and starter lists apart from another box's, whatever the payload names", async () => {
    const sql = getSql();
    const rowsOfA = async () => ({
      known:
        await sql`select "vereinsId", "name", "sourceDeleted" from "ClubDataKnownClub" where "reportedByClubId" = ${world.clubA} order by 1`,
      lists: await sql`select list_id, name from edge_starterlist where club_id = ${world.clubA} order by 1`,
    });
    const post = (authorization: string, path: string, json: unknown) =>
      sendRaw(host.url, {
        method: 'POST',
        path,
        headers: { authorization, 'content-type': 'application/json' },
        body: JSON.stringify(json),
      });

    expect((await post(world.auth.edgeA, '/api/edge/clubs/sync', { clubs: [{ vereinsId: '91001', name: 'Club A' }] })).status).toBe(200);
    const starterlist = { id: 'list-a', name: 'Evening A', date: '2026-01-07', discipline: 'LG', laneCount: 10, startersCount: 8 };
    expect((await post(world.auth.edgeA, '/api/edge/starterlists', { starterlists: [starterlist] })).status).toBe(200);
    const before = await rowsOfA();
    expect(before.known).toHaveLength(1);
    expect(before.lists).toHaveLength(1);

    // Box B reports an empty list (which would mark A's clubs deleted if it were A's report) and
    // names club A wherever a payload could carry it.
    const sync = await post(world.auth.edgeB, '/api/edge/clubs/sync', { clubs: [], clubId: world.clubA, reportedByClubId: world.clubA });
    expect(sync.status).toBe(200);
    const lists = await post(world.auth.edgeB, `/api/edge/starterlists?clubId=${world.clubA}`, {
      starterlists: [{ ...starterlist, name: 'Overwritten by B' }],
    });
    expect(lists.status).toBe(200);
    expect(await rowsOfA()).toEqual(before);
  });
});
