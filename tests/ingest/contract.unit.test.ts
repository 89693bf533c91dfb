import { classifyMessage, parseWithSchemas, REJECT_REASONS, type IncomingMessage } from '../../shared/ingest/contract';
import { messagesFromTrigger } from '../../shared/ingest/triggerMessages';
import { connectorBodies, event, hitBody, shooterBody, triggerMetadataFor } from './fixtures';

const origin = { topic: 'club.4711.hits', clubId: '4711' };
const message = (body: unknown, properties: Record<string, unknown>, sequenceNumber = 5): IncomingMessage => ({
  body,
  properties,
  sequenceNumber,
  enqueuedAt: null,
  partitionId: '0',
});

describe('ingest contract: bodies as the shipped connector configuration emits them', () => {
  it.each(['text', 'bytes', 'base64'] as const)('reads a hit create with origin headers as %s', (encoding) => {
    const sent = event(connectorBodies.hitCreate, origin, encoding);
    const result = classifyMessage(message(sent.body, sent.properties));
    expect(result).toEqual({
      kind: 'change',
      change: {
        entity: 'hits',
        topic: 'club.4711.hits',
        clubId: '4711',
        recordId: '90211',
        deleted: false,
        lsn: 24023184,
        sequence: 5,
        sourceAt: new Date(1763665201500),
        row: {
          id: '90211',
          club_id: '4711',
          shooter_id: '17',
          discipline: 'LG 10m',
          series: 2,
          shot_no: 7,
          value: 10.4,
          // Epoch microseconds, millisecond precision kept.
          shot_at: new Date(Date.UTC(2025, 10, 20, 19, 0, 1, 123)),
        },
      },
    });
  });

  it('reads an update, a delete carrying only the key, a snapshot read and a shooter', () => {
    const read = (body: Record<string, unknown>, topic = origin.topic) =>
      classifyMessage(message(body, { sourceTopic: topic, sourceClubId: '4711' }));
    expect(read(connectorBodies.hitUpdate)).toMatchObject({
      kind: 'change',
      change: { deleted: false, lsn: 24023560, row: { value: 9.7 } },
    });
    expect(read(connectorBodies.hitDelete)).toMatchObject({ kind: 'change', change: { deleted: true, recordId: '90211', row: null } });
    expect(read(connectorBodies.hitSnapshotRead)).toMatchObject({ kind: 'change', change: { recordId: '88001', lsn: 23000000 } });
    expect(read(connectorBodies.shooterCreate, 'club.4711.shooters')).toMatchObject({
      kind: 'change',
      change: { entity: 'shooters', recordId: '17', deleted: false, row: { display_name: 'Anna K.', birth_year: 1988 } },
    });
  });

  it('accepts the body as an object, a JSON string or UTF-8 bytes', () => {
    const headers = { sourceTopic: origin.topic, sourceClubId: '4711' };
    const asText = JSON.stringify(connectorBodies.hitCreate);
    for (const body of [connectorBodies.hitCreate, asText, Buffer.from(asText), new Uint8Array(Buffer.from(asText))]) {
      expect(classifyMessage(message(body, headers)).kind).toBe('change');
    }
  });

  it.each([null, undefined, '', Buffer.alloc(0), 'null'])('skips a tombstone (%p) without rejecting it', (body) => {
    expect(classifyMessage(message(body, { sourceTopic: origin.topic, sourceClubId: '4711' }))).toEqual({ kind: 'tombstone' });
  });

  it('reads an ISO timestamp (a timestamptz column) as well as epoch microseconds', () => {
    const body = hitBody({ id: 1, clubId: '4711', lsn: 10 });
    (body['after'] as Record<string, unknown>)['shot_at'] = '2026-11-20T19:00:01.5Z';
    expect(classifyMessage(message(body, { sourceTopic: origin.topic, sourceClubId: '4711' }))).toMatchObject({
      change: { row: { shot_at: new Date('2026-11-20T19:00:01.5Z') } },
    });
  });
});

describe('ingest contract rejects', () => {
  const good = hitBody({ id: 1, clubId: '4711', lsn: 10 });
  const cases: [string, IncomingMessage, string][] = [
    ['no sourceTopic', message(good, { sourceClubId: '4711' }), 'topic_malformed'],
    [
      'a topic outside club.<clubId>.<entity>',
      message(good, { sourceTopic: 'mirror.public.hits', sourceClubId: '4711' }),
      'topic_malformed',
    ],
    ['an unknown entity', message(good, { sourceTopic: 'club.4711.lanes', sourceClubId: '4711' }), 'entity_unknown'],
    ['no sourceClubId', message(good, { sourceTopic: 'club.4711.hits' }), 'club_scope_mismatch'],
    [
      'a sourceClubId outside the topic scope',
      message(good, { sourceTopic: 'club.4711.hits', sourceClubId: '4712' }),
      'club_scope_mismatch',
    ],
    ['a body that is not JSON', message('{"op":', { sourceTopic: 'club.4711.hits', sourceClubId: '4711' }), 'body_invalid'],
    [
      'an envelope with schema',
      message({ schema: {}, payload: good }, { sourceTopic: 'club.4711.hits', sourceClubId: '4711' }),
      'body_invalid',
    ],
    ['a truncate', message({ ...good, op: 't' }, { sourceTopic: 'club.4711.hits', sourceClubId: '4711' }), 'body_invalid'],
    ['a ring value out of range', message(hitBody({ id: 1, clubId: '4711', lsn: 10, value: 109 }), origin2()), 'body_invalid'],
    ['a NUL character', message(withAfter(good, { discipline: 'LG\u0000' }), origin2()), 'body_invalid'],
    ['a delete without before', message({ ...good, op: 'd', before: null, after: null }, origin2()), 'body_invalid'],
    [
      'a shooters row on the hits topic',
      message(hitBody({ id: 1, clubId: '4711', lsn: 10, table: 'shooters' }), origin2()),
      'topic_entity_mismatch',
    ],
    ['a payload club other than the origin', message(hitBody({ id: 1, clubId: '4712', lsn: 10 }), origin2()), 'origin_mismatch'],
  ];

  it.each(cases)('rejects %s', (_name, input, reason) => {
    const result = classifyMessage(input);
    expect(result).toMatchObject({ kind: 'reject', reject: { reason, sequence: 5 } });
  });

  it('covers every documented reason code', () => {
    expect(new Set(cases.map(([, , reason]) => reason))).toEqual(new Set(REJECT_REASONS));
  });

  it('names topic, club and entity of a reject so the slice can be reprocessed', () => {
    const result = classifyMessage(message(hitBody({ id: 1, clubId: '4712', lsn: 10 }), origin2()));
    expect(result).toEqual({
      kind: 'reject',
      reject: {
        reason: 'origin_mismatch',
        topic: 'club.4711.hits',
        clubId: '4711',
        entity: 'hits',
        detail: 'payload club_id 4712 but origin 4711',
        sequence: 5,
      },
    });
  });
});

describe('trigger metadata as the Node worker hands it over', () => {
  it('pairs bodies with properties, sequence numbers, UTC enqueued times and the partition', () => {
    const events = [event({ a: 1 }, origin, 'bytes'), event('x', origin)];
    const messages = messagesFromTrigger(
      events.map((item) => item.body),
      triggerMetadataFor(events, [41, 42]),
    );
    expect(messages).toEqual([
      {
        body: { a: 1 },
        properties: events[0]?.properties,
        sequenceNumber: 41,
        enqueuedAt: new Date('2026-11-20T19:00:01.250Z'),
        partitionId: '0',
      },
      {
        body: 'x',
        properties: events[1]?.properties,
        sequenceNumber: 42,
        enqueuedAt: new Date('2026-11-20T19:00:01.250Z'),
        partitionId: '0',
      },
    ]);
  });

  it('tolerates missing metadata', () => {
    expect(messagesFromTrigger(['x'], undefined)).toEqual([
      { body: 'x', properties: {}, sequenceNumber: null, enqueuedAt: null, partitionId: null },
    ]);
  });
});

function origin2() {
  return { sourceTopic: 'club.4711.hits', sourceClubId: '4711' };
}

function withAfter(body: Record<string, unknown>, fields: Record<string, unknown>) {
  return { ...body, after: { ...(body['after'] as Record<string, unknown>), ...fields } };
}

describe('ingest contract refuses what the apply path cannot store', () => {
  const good = hitBody({ id: 1, clubId: '4711', lsn: 10 });
  const withSource = (fields: Record<string, unknown>) => ({ ...good, source: { ...(good['source'] as object), ...fields } });
  const classify = (body: unknown, properties: Record<string, unknown> = origin2()) => classifyMessage(message(body, properties));

  it.each([
    ['a source time beyond what Date holds (1e16 ms)', withSource({ ts_ms: 1e16 })],
    ['a source time PostgreSQL refuses (-1e15 ms)', withSource({ ts_ms: -1e15 })],
    ['a source time before 1970', withSource({ ts_ms: -1 })],
    ['a source time after 2200', withSource({ ts_ms: Date.UTC(2200, 0, 1, 0, 0, 1) })],
    ['an infinite source time', withSource({ ts_ms: Infinity })],
    ['an envelope time beyond range', { ...good, ts_ms: 8.64e15 }],
    ['an lsn beyond a safe integer', withSource({ lsn: 2 ** 60 })],
    ['a fractional transaction id', withSource({ txId: 1.5 })],
    ['a shot time beyond range (microseconds)', withAfter(good, { shot_at: 1e25 })],
    ['a shot time as a far ISO date', withAfter(good, { shot_at: '+275760-09-13T00:00:00.000Z' })],
    ['a control character in a text column', withAfter(good, { discipline: 'LG\u0007' })],
    ['a lone surrogate in a text column', withAfter(good, { discipline: 'LG \ud800' })],
    ['a C1 control character', withAfter(good, { discipline: 'LG\u0085' })],
    ['a text column over its length', withAfter(good, { discipline: 'x'.repeat(101) })],
    ['a NUL in the source table', withSource({ table: 'hits\u0000' })],
    ['a 700,000-character source table', withSource({ table: 'x'.repeat(700_000) })],
    ['a NUL in the connector name', withSource({ name: 'mirror\u0000' })],
  ])('as a body_invalid reject: %s', (_name, body) => {
    expect(classify(body)).toMatchObject({ kind: 'reject', reject: { reason: 'body_invalid' } });
  });

  it('accepts the ends of the range and two-unit characters', () => {
    expect(classify(withSource({ ts_ms: 0 }))).toMatchObject({ kind: 'change' });
    expect(classify(withSource({ ts_ms: Date.UTC(2200, 0, 1) }))).toMatchObject({ kind: 'change' });
    expect(classify(withAfter(good, { discipline: 'LG 🎯 Ä' }))).toMatchObject({
      kind: 'change',
      change: { row: { discipline: 'LG 🎯 Ä' } },
    });
  });

  it('keeps what it stores of a reject short and free of unstorable characters', () => {
    const hostileTopic = `club.4711.hits\u0000${'\ud800'.repeat(10)}${'x'.repeat(700_000)}`;
    const cases = [
      classify(good, { sourceTopic: hostileTopic, sourceClubId: '4711' }),
      classify(good, { sourceTopic: 'club.4711.hits', sourceClubId: `4711\u0000${'y'.repeat(700_000)}` }),
      classify(withSource({ table: 'x'.repeat(700_000) })),
      classify({ ...good, op: `t${'\u0001'.repeat(700_000)}` }),
      classify(withAfter(good, { id: `\u0000${'z'.repeat(700_000)}` })),
    ];
    for (const result of cases) {
      if (result.kind !== 'reject') throw new Error('expected a reject');
      const { topic, detail } = result.reject;
      expect(detail.length).toBeLessThanOrEqual(300);
      expect((topic ?? '').length).toBeLessThanOrEqual(200);
      for (const text of [topic ?? '', detail]) expect(text).not.toMatch(/[\u0000-\u001f]|[\ud800-\udbff](?![\udc00-\udfff])/);
    }
    expect(cases[0]).toMatchObject({ reject: { reason: 'topic_malformed' } });
    expect(cases[1]).toMatchObject({ reject: { reason: 'club_scope_mismatch' } });
  });
});

describe('the contract schemas on the common bodies and their edges', () => {
  const hit = hitBody({ id: 1, clubId: '4711', lsn: 10 });
  const replaced = (path: readonly string[], value: unknown) => {
    const copy = structuredClone(hit);
    const parent = path.slice(0, -1).reduce<Record<string, unknown>>((node, key) => node[key] as Record<string, unknown>, copy);
    parent[path.at(-1)!] = value;
    return copy;
  };

  it.each([
    ['hit', 'hits', hit],
    ['hit update', 'hits', hitBody({ id: 'a-1', clubId: '4711', lsn: 10, op: 'u' })],
    ['connector hit', 'hits', connectorBodies.hitCreate],
    ['shooter', 'shooters', shooterBody({ id: 5, clubId: '4711', lsn: 3 })],
    ['connector shooter', 'shooters', connectorBodies.shooterCreate],
  ] as const)('takes the common %s', (_name, entity, body) => {
    expect(parseWithSchemas(body, entity)).toMatchObject({ deleted: false, row: { club_id: '4711' } });
  });

  it('reads deletes and ISO times, and refuses a wrong table, a time beyond 2200, a NUL and a body that is still text', () => {
    expect(parseWithSchemas(hitBody({ id: 1, clubId: '4711', lsn: 10, op: 'd' }), 'hits')).toMatchObject({ deleted: true });
    expect(parseWithSchemas(replaced(['after', 'shot_at'], '2026-11-20T19:00:01Z'), 'hits')).toMatchObject({
      row: { shot_at: new Date('2026-11-20T19:00:01Z') },
    });
    expect(parseWithSchemas(replaced(['source', 'table'], 'shooters'), 'hits')).toMatchObject({ reason: 'topic_entity_mismatch' });
    expect(parseWithSchemas(replaced(['source', 'ts_ms'], 1e16), 'hits')).toMatchObject({ reason: 'body_invalid' });
    expect(parseWithSchemas(replaced(['after', 'discipline'], 'a\u0000'), 'hits')).toMatchObject({ reason: 'body_invalid' });
    expect(parseWithSchemas(JSON.stringify(hit), 'hits')).toMatchObject({ reason: 'body_invalid' });
  });
});
