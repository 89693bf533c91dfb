import { clubMasterSyncGate, probe } from '../../ops/rolloutGates';
import { useTestHost } from '../support/testHost';

describe('rollout checks against a running release', () => {
  const host = useTestHost();

  it('sees the club master sync endpoint of this release (an unauthenticated probe is refused, not 404)', async () => {
    const answer = await probe('POST', `${host.url}/api/edge/clubs/sync`);
    expect(answer.status).toBe(401);
    expect(clubMasterSyncGate(answer).pass).toBe(true);
  });

  it('tells a missing endpoint apart', async () => {
    const answer = await probe('POST', `${host.url}/api/edge/clubs/sync-that-does-not-exist`);
    expect(answer.status).toBe(404);
    expect(clubMasterSyncGate(answer).pass).toBe(false);
  });
});
