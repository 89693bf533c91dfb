import { getSql } from '../../shared/db/client';
import { runClubMasterCleanup } from '../../shared/clubMaster/cleanup';
import { purgeDeletedKnownClubs } from '../../shared/clubMaster/knownClubRepository';
import { createEdgeToken } from '../../shared/clubMaster/edgeTokens';
import { syncKnownClubs } from '../../shared/clubMaster/knownClubSync';
import { createLogger, type LogLevel } from '../../shared/log/logger';
import { useTestHost } from '../support/testHost';
import { clubList, knownRows } from './fixtures';
import { createBox, createServiceClub } from '../support/fixtures';

function capturingLogger() {
  const lines: { level: LogLevel; event: string; [key: string]: unknown }[] = [];
  const log = createLogger({ minLevel: 'debug', sink: (level, line) => lines.push({ level, ...(JSON.parse(line) as { event: string }) }) });
  return { log, lines };
}

const settings = { retentionDays: 90, staleAfterHours: 24 };

describe('club master cleanup', () => {
  const sql = () => getSql();

  /** Pretends the box's missing clubs disappeared `days` ago. */
  const ageDeletion = (clubId: string, vereinsIds: string[], days: number) => sql()`
    update "ClubDataKnownClub" set "sourceDeletedAt" = now() - make_interval(days => ${days})
    where "reportedByClubId" = ${clubId} and "vereinsId" = any(${vereinsIds}::text[])`;
  const ageReport = (clubId: string, hours: number) => sql()`
    update club_master_report set last_reported_at = now() - make_interval(hours => ${hours}) where club_id = ${clubId}`;

  it('purges rows sourceDeleted longer than the retention and keeps everything else', async () => {
    const box = await createServiceClub(sql());
    await syncKnownClubs(sql(), box, clubList('c', 4));
    await syncKnownClubs(sql(), box, clubList('c', 1));
    // Only this file ages rows; purging first clears what an interrupted earlier run may have left.
    await purgeDeletedKnownClubs(sql(), settings.retentionDays);
    await ageDeletion(box, ['c-1'], 91);
    await ageDeletion(box, ['c-2'], 89);
    const { log } = capturingLogger();
    const outcome = await runClubMasterCleanup(sql(), settings, log);
    expect(outcome.purged).toBe(1);
    expect((await knownRows(sql(), box)).map((row) => [row.vereinsId, row.sourceDeleted])).toEqual([
      ['c-0', false],
      ['c-2', true],
      ['c-3', true],
    ]);
  });

  it('keeps a row deleted exactly the retention ago and purges one a second older', async () => {
    const box = await createServiceClub(sql());
    await syncKnownClubs(sql(), box, clubList('b', 3));
    await syncKnownClubs(sql(), box, []);
    // now() is fixed within a transaction, so the ages are exact relative to the purge's own now().
    const purged = await sql().begin(async (tx) => {
      await purgeDeletedKnownClubs(tx, settings.retentionDays);
      await tx`
        update "ClubDataKnownClub" set "sourceDeletedAt" = case "vereinsId"
          when 'b-0' then now() - make_interval(days => 90)
          when 'b-1' then now() - make_interval(days => 90, secs => 1)
          else now() - make_interval(days => 89, hours => 23, mins => 59) end
        where "reportedByClubId" = ${box}`;
      return purgeDeletedKnownClubs(tx, settings.retentionDays);
    });
    expect(purged).toBe(1);
    expect((await knownRows(sql(), box)).map((row) => row.vereinsId)).toEqual(['b-0', 'b-2']);
  });

  it('warns about boxes that stopped reporting, not about silent-by-design ones', async () => {
    const stopped = await createBox(sql());
    await syncKnownClubs(sql(), stopped.clubId, clubList('s', 2));
    await ageReport(stopped.clubId, 30);

    const fresh = await createBox(sql());
    await syncKnownClubs(sql(), fresh.clubId, []);

    const decommissioned = await createBox(sql());
    await syncKnownClubs(sql(), decommissioned.clubId, []);
    await ageReport(decommissioned.clubId, 30);
    await sql()`update edge_token set revoked_at = now() where id = ${decommissioned.tokenId}`;

    const neverEnabled = await createBox(sql());

    const { log, lines } = capturingLogger();
    const outcome = await runClubMasterCleanup(sql(), settings, log);
    const warning = lines.find((line) => line.event === 'club_master_boxes_stale');
    expect(warning?.level).toBe('warn');
    const listed = (warning?.['boxes'] as { clubId: string; hoursSinceReport: number }[]).map((box) => box.clubId);
    expect(listed).toContain(stopped.clubId);
    expect(listed).not.toEqual(expect.arrayContaining([fresh.clubId]));
    expect(listed).not.toEqual(expect.arrayContaining([decommissioned.clubId]));
    expect(listed).not.toEqual(expect.arrayContaining([neverEnabled.clubId]));
    expect(outcome.staleBoxes).toBe(listed.length);
  });

  it('a box with a second, unrevoked token still counts', async () => {
    const box = await createBox(sql());
    await syncKnownClubs(sql(), box.clubId, []);
    await ageReport(box.clubId, 48);
    await sql()`update edge_token set revoked_at = now() where id = ${box.tokenId}`;
    await createEdgeToken(sql(), box.clubId);
    const { log, lines } = capturingLogger();
    await runClubMasterCleanup(sql(), settings, log);
    const warning = lines.find((line) => line.event === 'club_master_boxes_stale');
    expect((warning?.['boxes'] as { clubId: string }[]).map((entry) => entry.clubId)).toContain(box.clubId);
  });

  describe('as the clubMasterCleanup timer', () => {
    const host = useTestHost();

    it('runs through the host and purges with the configured retention', async () => {
      const box = await createServiceClub(sql());
      await syncKnownClubs(sql(), box, clubList('t', 2));
      await syncKnownClubs(sql(), box, clubList('t', 1));
      await ageDeletion(box, ['t-1'], 365);
      const response = await host.request('POST', '/admin/functions/clubMasterCleanup', { json: { input: null } });
      expect(response.status).toBe(202);
      expect((await knownRows(sql(), box)).map((row) => row.vereinsId)).toEqual(['t-0']);
    });
  });
});
