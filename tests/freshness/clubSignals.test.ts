import { getSql } from '../../shared/db/client';
import { CLUB_SIGNALS_QUERY, readClubSignals } from '../../shared/freshness/freshnessRepository';
import { addHit, createFreshnessClub } from './fixtures';
import { addEdgeToken } from '../support/fixtures';

const sql = () => getSql();

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Loops'?: number;
  'Actual Rows'?: number;
  Plans?: PlanNode[];
}

function nodes(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodes)];
}

describe('readClubSignals', () => {
  it('reads the newest arrival, the plan, the token use and the box signal of each active numbered club', async () => {
    const club = await createFreshnessClub(sql());
    const silent = await createFreshnessClub(sql());
    await addHit(sql(), club.vereinsId!, '2026-11-10T10:00:00Z');
    await addHit(sql(), club.vereinsId!, '2026-11-18T18:00:00Z');
    await addHit(sql(), club.vereinsId!, '2026-11-12T10:00:00Z');
    await addEdgeToken(sql(), club.clubId, '2026-11-18T20:00:00Z');
    await addEdgeToken(sql(), club.clubId, '2026-11-19T03:00:00Z');
    await sql()`insert into club_training_plan (club_id, time_zone, evenings, updated_by)
      values (${club.clubId}, 'Europe/Vienna', ${sql().json([{ weekday: 'friday', start: '19:00', end: '21:00', endsNextDay: false }])}, 'test')`;
    await sql()`insert into edge_box_signal (club_id, last_push_at, last_starterlist_seen_at) values (${club.clubId}, now(), '2026-11-18T17:30:00Z')`;

    const rows = await readClubSignals(sql());
    expect(rows.find((row) => row.clubId === club.clubId)).toMatchObject({
      vereinsId: club.vereinsId,
      name: club.name,
      storedPlan: { timeZone: 'Europe/Vienna', evenings: [{ weekday: 'friday', start: '19:00', end: '21:00', endsNextDay: false }] },
      lastArrivalAt: new Date('2026-11-18T18:00:00Z'),
      edgeTokenLastUsedAt: new Date('2026-11-19T03:00:00Z'),
      lastStarterlistSeenAt: new Date('2026-11-18T17:30:00Z'),
    });
    expect(rows.find((row) => row.clubId === silent.clubId)).toMatchObject({
      storedPlan: null,
      lastArrivalAt: null,
      edgeTokenLastUsedAt: null,
    });
  });

  it('reads no hit at all: the newest arrival of each club is one row of club_last_arrival, however many hits and months it has', async () => {
    const busy = await createFreshnessClub(sql());
    // Hits of three months: two of them older than the partitions made ahead (in the default partition), one now.
    await sql()`
      insert into club_data_hit (source_club_id, source_record_id, created_at)
      select ${busy.vereinsId}, 'bulk-' || n,
             case when n % 3 = 0 then now() - n * interval '1 second' else timestamptz '2026-01-01' + n * interval '1 minute' end
      from generate_series(1, 20000) as n`;
    // The bulk rows bypass ingest and so leave club_last_arrival alone: the answer shows which one is read.
    await addHit(sql(), busy.vereinsId!, '2026-11-18T18:00:00Z');
    const [
      {
        'QUERY PLAN': [explained],
      },
    ] = (await sql().unsafe(`explain (analyze, format json) ${CLUB_SIGNALS_QUERY}`)) as unknown as [{ 'QUERY PLAN': [{ Plan: PlanNode }] }];
    const relations = nodes(explained.Plan).map((node) => node['Relation Name'] ?? '');
    expect(relations.filter((name) => name.startsWith('club_data_hit'))).toEqual([]);
    expect(relations).toContain('club_last_arrival');
    const rows = await readClubSignals(sql());
    expect(rows.find((row) => row.clubId === busy.clubId)?.lastArrivalAt).toEqual(new Date('2026-11-18T18:00:00Z'));
  });
});
