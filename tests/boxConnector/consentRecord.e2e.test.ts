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

  const revoked = { state: 'REVOKED', changedAt: '2026-11-20T18:00:00.000Z' };
  /** A box whose club push reported REVOKED. */
  async function revokedBox() {
    const box = await createBox(sql());
    expect((await push(box.token, '/api/edge/clubs/sync', { clubs: [], consent: revoked })).status).toBe(200);
    return box;
  }

  it('records the consent a club master push reports', async () => {
    const box = await createBox(sql());
    expect(await consentOf(box.clubId)).toBeUndefined();
    expect((await push(box.token, '/api/edge/clubs/sync', { clubs: [], consent: revoked })).status).toBe(200);
    const stored = await consentOf(box.clubId);
    expect(stored).toMatchObject({ state: 'REVOKED', changedAt: new Date(revoked.changedAt), reportedByTokenId: box.tokenId });
  });

  it('writes nothing for a repeat of the stored consent', async () => {
    const box = await revokedBox();
    const stored = await consentOf(box.clubId);
    // The same consent again: no new row, the stored receivedAt stays.
    expect((await push(box.token, '/api/edge/starterlists', { starterlists: [], consent: revoked })).status).toBe(200);
    expect((await consentOf(box.clubId))?.receivedAt).toEqual(stored?.receivedAt);
    expect(await auditCount(box.clubId)).toBe(1);
  });

  it('records a change a starter-list push reports, and audits each change', async () => {
    const box = await revokedBox();
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

  describe('a box reports only for its own club', () => {
    /** Two boxes; the other one's club has GRANTED on record. */
    async function ownAndOther() {
      const own = await createBox(sql());
      const other = await createBox(sql());
      await push(other.token, '/api/edge/clubs/sync', { clubs: [], consent: { state: 'GRANTED', changedAt: '2026-11-20T18:00:00Z' } });
      return { own, other };
    }

    it('refuses a consent that names another club, and stores nothing', async () => {
      const { own, other } = await ownAndOther();
      const foreign = await push(own.token, '/api/edge/starterlists', {
        starterlists: [],
        consent: { state: 'REVOKED', changedAt: '2026-11-20T19:00:00Z', clubId: other.clubId },
      });
      expect(foreign.status).toBe(400);
      expect(foreign.headers.get('content-type')).toContain('application/problem+json');
      const problem = await readJson<ProblemJson>(foreign);
      expect(JSON.stringify(problem.errors)).toContain('body.consent');
      expect(await consentOf(own.clubId)).toBeUndefined();
    });

    it("records the consent for the club the token names, and leaves another box's club alone", async () => {
      const { own, other } = await ownAndOther();
      await push(own.token, '/api/edge/clubs/sync', { clubs: [], consent: { state: 'REVOKED', changedAt: '2026-11-20T19:00:00Z' } });
      expect(await consentOf(own.clubId)).toMatchObject({ state: 'REVOKED' });
      expect(await consentOf(other.clubId)).toMatchObject({ state: 'GRANTED', reportedByTokenId: other.tokenId });
    });
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

  /** Records what a box of a new club reports, as the push routes do. */
  async function reporterForNewBox() {
    const box = await createBox(sql());
    return (state: 'GRANTED' | 'REVOKED' | 'NONE', changedAt: string | null) =>
      recordReportedConsent(sql(), { clubId: box.clubId, tokenId: box.tokenId, report: { state, changedAt } });
  }

  it('ignores a late GRANTED older than the stored state, and one without a time', async () => {
    const report = await reporterForNewBox();
    await report('REVOKED', '2026-11-20T19:00:00Z');
    expect(await report('GRANTED', '2026-11-20T18:00:00Z')).toMatchObject({ changed: false, state: 'REVOKED' });
    expect(await report('GRANTED', null)).toMatchObject({ changed: false, state: 'REVOKED' });
  });

  it('always applies a refusal, without a time or older than the stored state', async () => {
    const report = await reporterForNewBox();
    await report('GRANTED', '2026-11-20T20:00:00Z');
    expect(await report('NONE', null)).toMatchObject({ changed: true, previousState: 'GRANTED', state: 'NONE' });
    expect(await report('REVOKED', '2026-11-19T00:00:00Z')).toMatchObject({ changed: true, state: 'REVOKED' });
  });

  describe('the audit', () => {
    const retention = { keep: 3, maxAgeDays: 365 };
    /** A new box's club with six changes on record, one a day from 1 to 6 November. */
    async function boxWithSixChanges() {
      const box = await createBox(sql());
      for (let day = 1; day <= 6; day += 1) {
        const state = day % 2 ? 'GRANTED' : 'REVOKED';
        await recordReportedConsent(
          sql(),
          { clubId: box.clubId, tokenId: box.tokenId, report: { state, changedAt: `2026-11-0${day}T18:00:00Z` } },
          retention,
        );
      }
      return box;
    }

    it('keeps the newest entries up to the count per club', async () => {
      const box = await boxWithSixChanges();
      const audit = await readConsentAudit(sql(), box.clubId);
      expect(audit.map((entry) => entry.changedAt?.toISOString())).toEqual([
        '2026-11-06T18:00:00.000Z',
        '2026-11-05T18:00:00.000Z',
        '2026-11-04T18:00:00.000Z',
      ]);
    });

    it('drops entries older than the age bound at the next change', async () => {
      const box = await boxWithSixChanges();
      await sql()`update club_consent_audit set received_at = now() - interval '400 days' where club_id = ${box.clubId}`;
      await recordReportedConsent(
        sql(),
        { clubId: box.clubId, tokenId: box.tokenId, report: { state: 'GRANTED', changedAt: '2026-11-07T18:00:00Z' } },
        retention,
      );
      expect((await readConsentAudit(sql(), box.clubId)).map((entry) => entry.state)).toEqual(['GRANTED']);
    });
  });
});
