import { recordReportedConsent, readConsentAudit, readRecordedConsents } from '../../shared/boxConnector/consentRepository';
import { getSql } from '../../shared/db/client';
import { readJson, type ProblemJson } from '../support/http';
import { useTestHost } from '../support/testHost';
import { createBox } from '../support/fixtures';

const sql = () => getSql();
const consentOf = async (clubId: string) => (await readRecordedConsents(sql(), [clubId])).get(clubId);
const auditCount = async (clubId: string) =>
  Number((await sql()<{ count: string }[]>`select count(*) from club_consent_audit where club_id = ${clubId}`)[0]?.count);

describe("the cloud records the box's reported consent per club", () => {
  const host = useTestHost();
  const push = (token: string, path: string, json: unknown) =>
    host.request('POST', path, { headers: { authorization: `Bearer ${token}` }, json });

  it('records a change with either push, audits it, and writes nothing for a repeat', async () => {
    const box = await createBox(sql());
    expect(await consentOf(box.clubId)).toBeUndefined();
    const revoked = { state: 'REVOKED', changedAt: '2026-11-20T18:00:00.000Z' };
    expect((await push(box.token, '/api/edge/clubs/sync', { clubs: [], consent: revoked })).status).toBe(200);
    const stored = await consentOf(box.clubId);
    expect(stored).toMatchObject({ state: 'REVOKED', changedAt: new Date(revoked.changedAt), reportedByTokenId: box.tokenId });

    // The same consent again: no new row, the stored receivedAt stays.
    expect((await push(box.token, '/api/edge/starterlists', { starterlists: [], consent: revoked })).status).toBe(200);
    expect((await consentOf(box.clubId))?.receivedAt).toEqual(stored?.receivedAt);
    expect(await auditCount(box.clubId)).toBe(1);

    expect(
      (
        await push(box.token, '/api/edge/starterlists', {
          starterlists: [],
          consent: { state: 'GRANTED', changedAt: '2026-11-20T19:00:00Z' },
        })
      ).status,
    ).toBe(200);
    expect(await consentOf(box.clubId)).toMatchObject({ state: 'GRANTED' });
    const audit = await readConsentAudit(sql(), box.clubId);
    expect(audit.map((entry) => [entry.previousState, entry.state])).toEqual([
      ['REVOKED', 'GRANTED'],
      [null, 'REVOKED'],
    ]);
  });

  it('records a push without consent as nothing (a box older than the consent report)', async () => {
    const box = await createBox(sql());
    expect((await push(box.token, '/api/edge/clubs/sync', { clubs: [] })).status).toBe(200);
    expect(await consentOf(box.clubId)).toBeUndefined();
  });

  it('lets a box report only for its own club: the token names the club, a club in the consent is refused', async () => {
    const own = await createBox(sql());
    const other = await createBox(sql());
    await push(other.token, '/api/edge/clubs/sync', { clubs: [], consent: { state: 'GRANTED', changedAt: '2026-11-20T18:00:00Z' } });

    const foreign = await push(own.token, '/api/edge/starterlists', {
      starterlists: [],
      consent: { state: 'REVOKED', changedAt: '2026-11-20T19:00:00Z', clubId: other.clubId },
    });
    expect(foreign.status).toBe(400);
    expect(foreign.headers.get('content-type')).toContain('application/problem+json');
    const problem = await readJson<ProblemJson>(foreign);
    expect(JSON.stringify(problem.errors)).toContain('body.consent');
    expect(await consentOf(own.clubId)).toBeUndefined();

    await push(own.token, '/api/edge/clubs/sync', { clubs: [], consent: { state: 'REVOKED', changedAt: '2026-11-20T19:00:00Z' } });
    expect(await consentOf(own.clubId)).toMatchObject({ state: 'REVOKED' });
    expect(await consentOf(other.clubId)).toMatchObject({ state: 'GRANTED', reportedByTokenId: other.tokenId });
  });

  it('refuses a malformed consent naming the field and stores nothing of the push', async () => {
    const box = await createBox(sql());
    const response = await push(box.token, '/api/edge/starterlists', {
      starterlists: [{ id: 'L1', date: '2026-11-20', discipline: 'LG', laneCount: 4, startersCount: 8 }],
      consent: { state: 'MAYBE', changedAt: null },
    });
    expect(response.status).toBe(400);
    expect(JSON.stringify((await readJson<ProblemJson>(response)).errors)).toContain('body.consent.state');
    expect(await consentOf(box.clubId)).toBeUndefined();
    const [lists] = await sql()<{ count: string }[]>`select count(*) from edge_starterlist where club_id = ${box.clubId}`;
    expect(Number(lists?.count)).toBe(0);
  });

  it('ignores a late GRANTED older than the stored state, but always applies a refusal', async () => {
    const box = await createBox(sql());
    const report = (state: 'GRANTED' | 'REVOKED' | 'NONE', changedAt: string | null) =>
      recordReportedConsent(sql(), { clubId: box.clubId, tokenId: box.tokenId, report: { state, changedAt } });
    await report('REVOKED', '2026-11-20T19:00:00Z');
    expect(await report('GRANTED', '2026-11-20T18:00:00Z')).toMatchObject({ changed: false, state: 'REVOKED' });
    expect(await report('GRANTED', null)).toMatchObject({ changed: false, state: 'REVOKED' });
    await report('GRANTED', '2026-11-20T20:00:00Z');
    expect(await report('NONE', null)).toMatchObject({ changed: true, previousState: 'GRANTED', state: 'NONE' });
    expect(await report('REVOKED', '2026-11-19T00:00:00Z')).toMatchObject({ changed: true, state: 'REVOKED' });
  });

  it('keeps the audit bounded by count per club and by age', async () => {
    const box = await createBox(sql());
    const retention = { keep: 3, maxAgeDays: 365 };
    for (let day = 1; day <= 6; day += 1) {
      const state = day % 2 ? 'GRANTED' : 'REVOKED';
      await recordReportedConsent(
        sql(),
        { clubId: box.clubId, tokenId: box.tokenId, report: { state, changedAt: `2026-11-0${day}T18:00:00Z` } },
        retention,
      );
    }
    const audit = await readConsentAudit(sql(), box.clubId);
    expect(audit.map((entry) => entry.changedAt?.toISOString())).toEqual([
      '2026-11-06T18:00:00.000Z',
      '2026-11-05T18:00:00.000Z',
      '2026-11-04T18:00:00.000Z',
    ]);

    await sql()`update club_consent_audit set received_at = now() - interval '400 days' where club_id = ${box.clubId}`;
    await recordReportedConsent(
      sql(),
      { clubId: box.clubId, tokenId: box.tokenId, report: { state: 'GRANTED', changedAt: '2026-11-07T18:00:00Z' } },
      retention,
    );
    expect((await readConsentAudit(sql(), box.clubId)).map((entry) => entry.state)).toEqual(['GRANTED']);
  });
});
