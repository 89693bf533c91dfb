import { createEdgeToken } from '../../shared/clubMaster/edgeTokens';
import { getSql } from '../../shared/db/client';
import { applyIngestBatch, type ApplyOptions } from '../../shared/ingest/apply';
import { readIngestHealth } from '../../shared/ingest/health';
import { createServiceClub } from '../support/fixtures';
import { useTestHost } from '../support/testHost';
import { useIngestTablesExclusively } from './exclusive';
import { event, hitEvent, incoming, shooterBody, TEST_THRESHOLDS, uniqueClub } from './fixtures';

const sql = () => getSql();
const options: ApplyOptions = {
  runner: { id: 'event:consent-test', kind: 'event' },
  statusEnabled: true,
  thresholds: TEST_THRESHOLDS,
  rejectLogMax: 1000,
};

const storedHits = async (vereinsId: string) =>
  (
    await sql()<{ record: string }[]>`select source_record_id as record from club_data_hit where source_club_id = ${vereinsId} order by 1`
  ).map((row) => row.record);
const storedShooters = async (vereinsId: string) =>
  (await sql()<{ record: string }[]>`select source_record_id as record from club_data_shooter where source_club_id = ${vereinsId}`).map(
    (row) => row.record,
  );
const loggedRejects = (vereinsId: string) =>
  sql()<{ reason: string; entity: string; detail: string }[]>`
    select reason, entity, detail from ingest_contract_reject where club_id = ${vereinsId} order by id`;

useIngestTablesExclusively();

describe('ingest refuses the score rows of a club without consent', () => {
  const host = useTestHost();

  /** A service club with a club number and its box's token. */
  async function boxedClub() {
    const vereinsId = uniqueClub();
    const clubId = await createServiceClub(sql(), { vereinsId });
    const { token } = await createEdgeToken(sql(), clubId);
    return { vereinsId, clubId, token };
  }
  const push = (token: string, path: string, json: unknown) =>
    host.request('POST', path, { headers: { authorization: `Bearer ${token}` }, json });

  /** A boxed club whose box pushed REVOKED. */
  async function revokedClub() {
    const club = await boxedClub();
    const revoked = await push(club.token, '/api/edge/clubs/sync', {
      clubs: [],
      consent: { state: 'REVOKED', changedAt: '2026-11-20T18:00:00Z' },
    });
    expect(revoked.status).toBe(200);
    return club;
  }

  it('after a push with REVOKED refuses the next hit with consent_not_granted and stores nothing', async () => {
    const { vereinsId } = await revokedClub();
    const refused = await applyIngestBatch(sql(), incoming([hitEvent({ id: 1, clubId: vereinsId, lsn: 10 })]), options);
    expect(refused).toMatchObject({ hits: 0, rejected: 1, rejectReasons: { consent_not_granted: 1 } });
    expect(await storedHits(vereinsId)).toEqual([]);
    const logged = await loggedRejects(vereinsId);
    expect(logged.map(({ reason, entity }) => ({ reason, entity }))).toEqual([{ reason: 'consent_not_granted', entity: 'hits' }]);
    expect(logged[0]?.detail).toContain('REVOKED');
    const health = await readIngestHealth(sql(), { statusEnabled: true, detail: true, now: new Date() });
    expect(health).toMatchObject({ lastContractRejectReason: 'consent_not_granted' });
  });

  it('applies the refused hit once a push reports GRANTED again', async () => {
    const { vereinsId, token } = await revokedClub();
    const refused = await applyIngestBatch(sql(), incoming([hitEvent({ id: 1, clubId: vereinsId, lsn: 10 })]), options);
    expect(refused).toMatchObject({ hits: 0, rejected: 1 });
    const granted = await push(token, '/api/edge/starterlists', {
      starterlists: [],
      consent: { state: 'GRANTED', changedAt: '2026-11-20T19:00:00Z' },
    });
    expect(granted.status).toBe(200);
    const applied = await applyIngestBatch(sql(), incoming([hitEvent({ id: 1, clubId: vereinsId, lsn: 10 })]), options);
    expect(applied).toMatchObject({ hits: 1, rejected: 0 });
    expect(await storedHits(vereinsId)).toEqual(['1']);
  });

  it('refuses shooters too, and only the refusing club of a mixed batch', async () => {
    const refusing = await boxedClub();
    const other = await boxedClub();
    await push(refusing.token, '/api/edge/starterlists', { starterlists: [], consent: { state: 'NONE', changedAt: null } });
    await push(other.token, '/api/edge/starterlists', {
      starterlists: [],
      consent: { state: 'GRANTED', changedAt: '2026-11-20T18:00:00Z' },
    });
    const shooter = (vereinsId: string) =>
      event(shooterBody({ id: 5, clubId: vereinsId, lsn: 3 }), { topic: `club.${vereinsId}.shooters`, clubId: vereinsId });

    const outcome = await applyIngestBatch(
      sql(),
      incoming([shooter(refusing.vereinsId), hitEvent({ id: 7, clubId: refusing.vereinsId, lsn: 4 }), shooter(other.vereinsId)]),
      options,
    );
    expect(outcome).toMatchObject({ shooters: 1, hits: 0, rejected: 2, rejectReasons: { consent_not_granted: 2 } });
    expect(await storedShooters(refusing.vereinsId)).toEqual([]);
    expect(await storedHits(refusing.vereinsId)).toEqual([]);
    expect(await storedShooters(other.vereinsId)).toEqual(['5']);
  });

  it('does not refuse a club that never reported a consent (a box older than the consent report)', async () => {
    const { vereinsId } = await boxedClub();
    const outcome = await applyIngestBatch(sql(), incoming([hitEvent({ id: 3, clubId: vereinsId, lsn: 1 })]), options);
    expect(outcome).toMatchObject({ hits: 1, rejected: 0 });
  });

  it('never quarantines a path for consent rejects, however many arrive', async () => {
    const { vereinsId, token } = await boxedClub();
    await push(token, '/api/edge/clubs/sync', { clubs: [], consent: { state: 'REVOKED', changedAt: '2026-11-20T18:00:00Z' } });
    const hits = Array.from({ length: TEST_THRESHOLDS.quarantineThreshold + 2 }, (_, index) =>
      hitEvent({ id: index + 1, clubId: vereinsId, lsn: index + 1 }),
    );
    const outcome = await applyIngestBatch(sql(), incoming(hits), options);
    expect(outcome.rejected).toBe(hits.length);
    expect(outcome.admissionState).toBe('rejecting');
  });
});
