import { DEMO_CLUB, DEMO_MEMBERSHIPS, seedDemo } from '../../development/demo/seed';
import { getSql } from '../../shared/db/client';
import { usePrivateDatabase, type PrivateDatabase } from '../support/dbFingerprint';
import { useTestHost } from '../support/testHost';
import { bearer } from '../support/tokens';

/** The demo `npm start` seeds: a club with the local provider's demo users, shot data, filled boards; safe to re-run. */
describe('the local demo', () => {
  // A database of its own: the member journey (tests/app) seeds the same demo users in the shared
  // one and joins their challenges, which would change the counts this test compares.
  let database: PrivateDatabase;
  beforeAll(async () => {
    database = await usePrivateDatabase('demo');
  }, 60_000);
  const host = useTestHost();
  afterAll(() => database?.drop());
  const get = async (user: string, path: string) => {
    const response = await host.request('GET', path, { headers: await bearer(user) });
    expect(response.status).toBe(200);
    return response.json() as Promise<Record<string, unknown>>;
  };

  it('gives the demo users a club, shots, running challenges and filled boards, and a second run changes nothing', async () => {
    const now = new Date();
    const first = await seedDemo(getSql(), now);
    expect(first.participations).toBe(12);
    const [shots] = await getSql()<
      { n: number }[]
    >`select count(*)::int as n from club_data_hit where source_club_id = ${DEMO_CLUB.vereinsId}`;
    expect(shots?.n).toBeGreaterThan(500);

    const memberships = await getSql()<{ userId: string; role: string }[]>`
      select user_id as "userId", role from club_membership where club_id = ${DEMO_CLUB.id} order by user_id`;
    expect(memberships).toEqual([
      { userId: 'demo-leader', role: 'leader' },
      { userId: 'demo-member-1', role: 'member' },
      { userId: 'demo-member-2', role: 'member' },
    ]);

    // The member's challenges page: the club's challenges with progress measured from the shots.
    const page = (await get('demo-member-1', '/api/challenges?scope=club&limit=100')) as {
      items: { id: string; participation: { progress: { value: number } | null; status: string } | null }[];
    };
    const joined = page.items.filter((item) => item.participation);
    expect(joined).toHaveLength(2);
    for (const item of joined) expect(item.participation?.progress?.value).toBeGreaterThan(0);

    // A club board with all three demo users on it, by name, seen by a member.
    const board = (await get('demo-member-2', `/api/challenges/${joined[0]!.id}/leaderboard?scope=club`)) as {
      items: { userId: string; displayName: string | null; initials: string | null }[];
      me: { userId: string } | null;
    };
    expect(board.items.map((row) => row.userId).sort()).toEqual(DEMO_MEMBERSHIPS.map((member) => member.userId).sort());
    expect(board.items.map((row) => [row.displayName, row.initials]).sort()).toEqual([
      ['Demo Leader', 'DL'],
      ['Demo Member 1', 'D1'],
      ['Demo Member 2', 'D2'],
    ]);
    expect(board.me?.userId).toBe('demo-member-2');
    // The leader reviews the club's members.
    const members = (await get('demo-leader', `/api/clubs/${DEMO_CLUB.id}/members`)) as { items: unknown[] };
    expect(members.items).toHaveLength(3);

    const counts = async () =>
      (
        await getSql()<{ hits: number; participations: number; memberships: number; challenges: number; ledger: number }[]>`
        select (select count(*)::int from club_data_hit where source_club_id = ${DEMO_CLUB.vereinsId}) as hits,
               (select count(*)::int from challenge_participation where user_id like 'demo-%') as participations,
               (select count(*)::int from club_membership where club_id = ${DEMO_CLUB.id}) as memberships,
               (select count(*)::int from challenge where preset_key is not null) as challenges,
               (select count(*)::int from xp_ledger where user_id like 'demo-%') as ledger`
      )[0];
    const before = await counts();
    const second = await seedDemo(getSql(), now);
    expect(second.participations).toBe(12);
    expect(await counts()).toEqual(before);
  });

  it('keeps a demo user out of a challenge they left', async () => {
    await seedDemo(getSql());
    const [participation] = await getSql()<{ id: string }[]>`
      select id from challenge_participation where user_id = 'demo-member-2' and status = 'active' order by id limit 1`;
    const left = await host.request('POST', `/api/challenges/participations/${participation!.id}/leave`, {
      headers: await bearer('demo-member-2'),
    });
    expect(left.status).toBe(200);
    await seedDemo(getSql());
    const [row] = await getSql()<{ status: string }[]>`select status from challenge_participation where id = ${participation!.id}`;
    expect(row?.status).toBe('cancelled');
  });
});
