import { quickSample, toEventData, trainingEvening, type HitRow } from '../../development/ingest/debeziumEvents';

describe('simulated training evening', () => {
  const startsAt = new Date('2026-11-20T18:30:00.000Z');
  const evening = trainingEvening({ clubId: '4711', startsAt, shooters: 6, seed: 7 });

  it('is the same for the same seed and different for another', () => {
    expect(trainingEvening({ clubId: '4711', startsAt, shooters: 6, seed: 7 })).toEqual(evening);
    expect(trainingEvening({ clubId: '4711', startsAt, shooters: 6, seed: 8 })).not.toEqual(evening);
  });

  it('numbers hits from firstHitId, so evenings of one club do not overwrite each other', () => {
    const hitIds = (firstHitId?: number) =>
      trainingEvening({ clubId: '4711', startsAt, shooters: 6, seed: 7, ...(firstHitId === undefined ? {} : { firstHitId }) })
        .filter((event) => event.entity === 'hits' && event.body?.op === 'c')
        .map((event) => (event.body?.after as HitRow).id);
    expect(Math.min(...hitIds())).toBe(50_001);
    const later = hitIds(60_000);
    expect(Math.min(...later)).toBe(60_001);
    expect(later.some((id) => hitIds().includes(id))).toBe(false);
  });

  it('sends the shooters first, then hits over two hours in commit order', () => {
    const entities = evening.map((event) => event.entity);
    expect(entities.slice(0, 6)).toEqual(Array(6).fill('shooters'));
    expect(entities.slice(6).every((entity) => entity === 'hits')).toBe(true);
    const lsns = evening.map((event) => event.body!.source.lsn);
    expect(lsns).toEqual([...lsns].sort((a, b) => a - b));
    const created = evening
      .filter((event) => event.entity === 'hits' && event.body!.op === 'c')
      .map((event) => event.body!.after as HitRow);
    const start = startsAt.getTime() * 1000;
    expect(created.every((hit) => hit.shot_at >= start && hit.shot_at < start + 2 * 3600e6)).toBe(true);
    expect(created.every((hit) => hit.shot_no >= 1 && hit.shot_no <= 10 && hit.value >= 0 && hit.value <= 10.9)).toBe(true);
    expect(created.every((hit) => Math.round(hit.value * 10) / 10 === hit.value)).toBe(true);
  });

  it('is shaped as the connector emits it, with one correction and one deletion', () => {
    const [shooter] = evening;
    expect(shooter).toMatchObject({ topic: 'club.4711.shooters', clubId: '4711', entity: 'shooters' });
    expect(Object.keys(shooter!.body!).sort()).toEqual(['after', 'before', 'op', 'source', 'transaction', 'ts_ms']);
    expect(shooter!.body!.source).toMatchObject({
      connector: 'postgresql',
      name: 'mirror_4711',
      db: 'mirror',
      table: 'shooters',
      snapshot: 'false',
    });
    expect(Object.keys(shooter!.body!.after!).sort()).toEqual(['birth_year', 'club_id', 'deleted', 'display_name', 'id']);
    const ops = evening.map((event) => event.body!.op);
    expect(ops.filter((op) => op === 'u')).toHaveLength(1);
    const deletion = evening.find((event) => event.body?.op === 'd');
    // REPLICA IDENTITY DEFAULT: only the key columns before a delete.
    expect(deletion?.body).toMatchObject({ after: null });
    expect(Object.keys(deletion!.body!.before!).sort()).toEqual(['club_id', 'id']);
  });

  it('adds a tombstone after the deletion when asked', () => {
    const withTombstone = trainingEvening({ clubId: '4711', startsAt, shooters: 2, tombstones: true });
    expect(withTombstone[withTombstone.length - 1]).toEqual({ topic: 'club.4711.hits', clubId: '4711', entity: 'hits', body: null });
    expect(toEventData(withTombstone[withTombstone.length - 1]!).body).toEqual(Buffer.alloc(0));
  });

  it('sends JSON bytes with text headers, or byte headers as over the Kafka endpoint', () => {
    const [first] = quickSample({ clubId: '4711', startsAt });
    expect(JSON.parse((toEventData(first!).body as Buffer).toString('utf8'))).toEqual(first!.body);
    expect(toEventData(first!).properties).toEqual({ sourceTopic: 'club.4711.shooters', sourceClubId: '4711' });
    expect(toEventData(first!, { headersAsBytes: true }).properties).toEqual({
      sourceTopic: Buffer.from('club.4711.shooters'),
      sourceClubId: Buffer.from('4711'),
    });
  });
});
