import { getSql } from '../../shared/db/client';
import { readClubOverview, type ClubOverviewOptions } from '../../shared/portal/clubOverview';
import { createFreshnessClub } from '../freshness/fixtures';
import { useIngestTablesExclusively } from '../ingest/exclusive';
import { uniqueVereinsId } from '../support/fixtures';
import { breakClubPath } from './clubFixtures';

const options = (include: ClubOverviewOptions['include']): ClubOverviewOptions => ({
  now: new Date(),
  staleAfterHours: 24,
  ingestSource: { statusEnabled: false, runnerKind: 'event' } as const,
  include,
  members: { limit: 50, offset: 0 },
});

/** What a caller sees depends on its capabilities: the route passes them as `include`. */
describe('readClubOverview: the parts each capability adds', () => {
  useIngestTablesExclusively();

  it('leaves out the ingest records without diagnostics.read and the members without clubs.manage', async () => {
    const club = await createFreshnessClub(getSql(), { leaders: 1 });
    const bare = await readClubOverview(getSql(), club.clubId, options({ ingest: false, members: false }));
    expect(bare.ingest).toBeNull();
    expect(bare.members).toBeNull();
    expect(bare.freshness.checked).toBe(true);
    const full = await readClubOverview(getSql(), club.clubId, options({ ingest: true, members: true }));
    expect(full.ingest).toMatchObject({ topicPrefix: `club.${club.vereinsId}.`, rejects: [] });
    expect(full.members?.items).toEqual([expect.objectContaining({ userId: club.leaders[0], role: 'leader' })]);
  });

  it('without the ingest status record still lists rejects and dead letters, but no quarantine or drift context', async () => {
    const club = await createFreshnessClub(getSql());
    await breakClubPath(getSql(), club.vereinsId ?? '', uniqueVereinsId());
    const off = await readClubOverview(getSql(), club.clubId, options({ ingest: true, members: false }));
    expect(off.ingest?.rejects).toHaveLength(5);
    expect(off.ingest?.deadLetters.pending).toBe(1);
    expect(off.ingest).toMatchObject({ quarantine: null, drift: null, lastReject: null });
    // Switched on, the same records carry the context.
    const on = await readClubOverview(getSql(), club.clubId, {
      ...options({ ingest: true, members: false }),
      ingestSource: { statusEnabled: true, runnerKind: 'event' },
    });
    expect(on.ingest?.quarantine?.topic).toBe(`club.${club.vereinsId}.hits`);
  });
});
