import { createHmac } from 'node:crypto';
import { newtonsoftDate } from '../../development/devhost/eventHubBinding';
import { timeSpanSeconds } from '../../development/devhost/hostJson';
import { retryDelayMs } from '../../development/devhost/retryPolicy';
import { developmentEndpoint } from '../../development/local/eventHubs/developmentHub';
import { parseEventPosition, startingSequenceNumber } from '../../development/local/eventHubs/eventPosition';
import { partitionForKey } from '../../development/local/eventHubs/partitionKey';
import { PartitionLog } from '../../development/local/eventHubs/partitionLog';
import { checkSasToken, claimCovers, claimPath } from '../../development/local/eventHubs/sasToken';
import { RETRY_POLICIES } from '../../shared/host/definition';

describe('selector filters', () => {
  it.each([
    ["amqp.annotation.x-opt-offset > '-1'", { kind: 'offset', value: '-1', inclusive: false }],
    ["amqp.annotation.x-opt-offset >= '4096'", { kind: 'offset', value: '4096', inclusive: true }],
    ["amqp.annotation.x-opt-offset > '@latest'", { kind: 'offset', value: '@latest', inclusive: false }],
    ["amqp.annotation.x-opt-sequence-number > '41'", { kind: 'sequenceNumber', value: 41, inclusive: false }],
    ["amqp.annotation.x-opt-enqueued-time > '1763661600000'", { kind: 'enqueuedTime', value: 1763661600000, inclusive: false }],
  ])('%s', (filter, position) => {
    expect(parseEventPosition(filter)).toEqual(position);
  });

  it('treats no filter as the start and refuses anything else', () => {
    expect(parseEventPosition(undefined)).toBeUndefined();
    expect(() => parseEventPosition("amqp.annotation.x-opt-offset < '5'")).toThrow(/Unsupported selector filter/);
    expect(() => parseEventPosition("amqp.annotation.x-opt-sequence-number > 'abc'")).toThrow(/whole number/);
  });

  it('finds the first event for each kind of position', () => {
    let now = 1000;
    const log = new PartitionLog({ maxEvents: 10, maxAgeMs: 1e9 }, () => now);
    for (const size of [10, 20, 30]) {
      log.append({ body: 'x' }, size, undefined);
      now += 100;
    }
    // offsets 0, 10, 30; enqueued 1000, 1100, 1200
    expect(startingSequenceNumber(log, undefined)).toBe(0);
    expect(startingSequenceNumber(log, parseEventPosition("amqp.annotation.x-opt-offset > '10'"))).toBe(2);
    expect(startingSequenceNumber(log, parseEventPosition("amqp.annotation.x-opt-offset >= '10'"))).toBe(1);
    expect(startingSequenceNumber(log, parseEventPosition("amqp.annotation.x-opt-offset > '@latest'"))).toBe(3);
    expect(startingSequenceNumber(log, parseEventPosition("amqp.annotation.x-opt-sequence-number > '0'"))).toBe(1);
    expect(startingSequenceNumber(log, parseEventPosition("amqp.annotation.x-opt-enqueued-time > '1100'"))).toBe(2);
    expect(startingSequenceNumber(log, parseEventPosition("amqp.annotation.x-opt-enqueued-time > '5000'"))).toBe(3);
  });
});

describe('partition log retention', () => {
  it('drops events older than the retention when the next arrives, keeping sequence numbers', () => {
    let now = 0;
    const log = new PartitionLog({ maxEvents: 100, maxAgeMs: 1000 }, () => now);
    log.append({ body: 1 }, 1, undefined);
    now = 2000;
    log.append({ body: 2 }, 1, undefined);
    expect(log.state()).toMatchObject({ beginningSequenceNumber: 1, lastEnqueuedSequenceNumber: 1, lastEnqueuedOffset: '1' });
    expect(log.eventFrom(0)?.sequenceNumber).toBe(1);
  });

  it('never hands out an earlier time than the last one', () => {
    let now = 5000;
    const log = new PartitionLog({ maxEvents: 100, maxAgeMs: 1e9 }, () => now);
    log.append({ body: 1 }, 1, undefined);
    now = 4000;
    expect(log.append({ body: 2 }, 1, undefined).enqueuedTimeMs).toBe(5000);
  });
});

describe('partition log delivery bytes', () => {
  it('gives an event its encoded bytes before a listener sees it, with its own sequence number', () => {
    const log = new PartitionLog(
      { maxEvents: 100, maxAgeMs: 1e9 },
      () => 0,
      (event) => Buffer.from(`event ${event.sequenceNumber}`),
    );
    const seen: (string | undefined)[] = [];
    log.onAppend(() => seen.push(log.eventFrom(log.nextSequence - 1)?.delivery?.toString()));
    log.append({ body: 1 }, 1, undefined);
    log.append({ body: 2 }, 1, undefined);
    expect(seen).toEqual(['event 0', 'event 1']);
  });
});

describe('partition keys', () => {
  it('map the same key to the same partition and spread different keys', () => {
    expect(partitionForKey('club.4711.hits', 4)).toBe(partitionForKey('club.4711.hits', 4));
    const used = new Set(Array.from({ length: 40 }, (_, i) => partitionForKey(`club.${i}.hits`, 4)));
    expect(used.size).toBe(4);
  });
});

describe('SAS tokens', () => {
  const key = { name: 'RootManageSharedAccessKey', key: 'SAS_KEY_VALUE' };
  const audience = 'sb://127.0.0.1:5673/club-data';
  const token = (signingKey: string, expiry: number, keyName = key.name) => {
    const sr = encodeURIComponent(audience);
    const sig = encodeURIComponent(createHmac('sha256', signingKey).update(`${sr}\n${expiry}`).digest('base64'));
    return `SharedAccessSignature sr=${sr}&sig=${sig}&se=${expiry}&skn=${keyName}`;
  };

  it('accepts a token signed with the key and refuses wrong, expired or foreign ones', () => {
    const now = 1_763_661_600_000;
    const expiry = now / 1000 + 3600;
    expect(checkSasToken(token('SAS_KEY_VALUE', expiry), key, now)).toEqual({ ok: true, audience });
    expect(checkSasToken(token('other', expiry), key, now)).toEqual({ ok: false, reason: 'signature does not match' });
    expect(checkSasToken(token('SAS_KEY_VALUE', now / 1000 - 1), key, now)).toEqual({ ok: false, reason: 'expired token' });
    expect(checkSasToken(token('SAS_KEY_VALUE', expiry, 'Listen'), key, now)).toEqual({ ok: false, reason: 'unknown key name' });
    expect(checkSasToken('Bearer abc', key, now).ok).toBe(false);
  });

  it('lets a claim cover its entity and what lies below it', () => {
    const path = claimPath('sb://127.0.0.1:5673/club-data/ConsumerGroups/$default/Partitions/0');
    expect(claimCovers(path, 'club-data/ConsumerGroups/$Default/Partitions/0')).toBe(true);
    expect(claimCovers(path, 'club-data/ConsumerGroups/$Default/Partitions/1')).toBe(false);
    expect(claimCovers(claimPath('sb://127.0.0.1:5673/'), 'anything')).toBe(true);
    expect(claimCovers(claimPath('sb://127.0.0.1:5673/club-data/$management'), 'club-data')).toBe(true);
  });
});

describe('retry delays', () => {
  it('doubles from the minimum interval up to the maximum and never stops for -1', () => {
    const policy = RETRY_POLICIES.eventBatch;
    expect([1, 2, 3, 9, 10, 1000].map((retry) => retryDelayMs(policy, retry))).toEqual([1000, 2000, 4000, 256_000, 300_000, 300_000]);
  });

  it('keeps a fixed delay and stops after maxRetryCount', () => {
    const policy = RETRY_POLICIES.timer;
    expect([1, 2, 3, 4].map((retry) => retryDelayMs(policy, retry))).toEqual([60_000, 60_000, 60_000, undefined]);
  });
});

describe('development connection strings', () => {
  it('recognise UseDevelopmentEmulator on a loopback host, with its port and key', () => {
    expect(
      developmentEndpoint(
        'Endpoint=sb://127.0.0.1:5673;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=SAS_KEY_VALUE;UseDevelopmentEmulator=true',
      ),
    ).toEqual({ host: '127.0.0.1', port: 5673, key: { name: 'RootManageSharedAccessKey', key: 'SAS_KEY_VALUE' } });
    expect(developmentEndpoint('Endpoint=sb://localhost;SharedAccessKeyName=a;SharedAccessKey=b;UseDevelopmentEmulator=true')?.port).toBe(
      5672,
    );
  });

  it('leave real namespaces and non-loopback emulators alone', () => {
    expect(developmentEndpoint('Endpoint=sb://club.servicebus.windows.net/;SharedAccessKeyName=a;SharedAccessKey=b')).toBeUndefined();
    expect(
      developmentEndpoint('Endpoint=sb://10.0.0.5:5672;SharedAccessKeyName=a;SharedAccessKey=b;UseDevelopmentEmulator=true'),
    ).toBeUndefined();
    expect(developmentEndpoint(undefined)).toBeUndefined();
  });
});

describe('host formats', () => {
  it('writes dates as Newtonsoft does: trailing fraction zeros dropped, zone only when known', () => {
    expect(newtonsoftDate(Date.parse('2026-11-20T18:00:00.810Z'), '')).toBe('2026-11-20T18:00:00.81');
    expect(newtonsoftDate(Date.parse('2026-11-20T18:00:00.000Z'), 'Z')).toBe('2026-11-20T18:00:00Z');
  });

  it('reads host.json durations', () => {
    expect(timeSpanSeconds('00:00:05')).toBe(5);
    expect(timeSpanSeconds('01:02:03')).toBe(3723);
    expect(() => timeSpanSeconds('5s')).toThrow(/hh:mm:ss/);
  });
});
