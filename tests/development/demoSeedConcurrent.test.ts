import { seedDemo } from '../../development/demo/seed';
import { getSql } from '../../shared/db/client';
import { usePrivateDatabase, type PrivateDatabase } from '../support/dbFingerprint';

/** Two `npm start` on one database seed the demo at the same moment (the tests start several). */
describe('the local demo seeded twice at once', () => {
  let database: PrivateDatabase;
  beforeAll(async () => {
    database = await usePrivateDatabase('demo_twice');
  }, 60_000);
  afterAll(() => database?.drop());

  it('lets both seeds finish, with each demo user in each preset challenge once', async () => {
    const now = new Date();
    const seeds = await Promise.allSettled([seedDemo(getSql(), now), seedDemo(getSql(), now)]);
    expect(seeds.map((seed) => (seed.status === 'rejected' ? String(seed.reason) : 'ok'))).toEqual(['ok', 'ok']);
    const [counts] = await getSql()<{ participations: number; pairs: number }[]>`
      select count(*)::int as participations, count(distinct (challenge_id, user_id))::int as pairs from challenge_participation`;
    expect(counts?.participations).toBe(12);
    expect(counts?.pairs).toBe(12);
  });
});
