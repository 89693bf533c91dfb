import {
  evaluateCatchUp,
  evaluatePartition,
  partitionLag,
  pushSample,
  summariseLag,
  type PartitionSample,
} from '../../shared/ingest/catchUp';

const at = (minute: number) => new Date(Date.UTC(2026, 10, 20, 19, minute));

/** A window of one partition from (checkpoint, lag) pairs, oldest first. */
const window = (...entries: [number | null, number][]): PartitionSample[] =>
  entries.map(([checkpoint, lag], index) => ({
    topic: 'club-data',
    partitionId: '0',
    checkpointSequenceNumber: checkpoint,
    lastEnqueuedSequenceNumber: (checkpoint ?? -1) + lag,
    lag,
    sampledAt: at(index),
  }));

const rules = { allowedLag: 0, windowSize: 10, minSamples: 3 };

describe('catchUpState rules (Burrow over a window of samples)', () => {
  it.each([
    ['no sample yet', window(), 'live'],
    ['lag zero now', window([10, 5], [10, 5], [15, 0]), 'live'],
    ['lag zero somewhere in the window, lag again now (a burst just arrived)', window([10, 0], [10, 40], [10, 40]), 'live'],
    ['lag falling while the checkpoint moves', window([10, 90], [40, 60], [70, 30]), 'catching_up'],
    ['checkpoint moving but lag not falling (falling behind)', window([10, 50], [20, 60], [30, 70]), 'catching_up'],
    ['checkpoint standing still across the window while lag > 0', window([10, 30], [10, 30], [10, 45]), 'stalled'],
    ['no checkpoint at all while events wait', window([null, 12], [null, 12], [null, 12]), 'stalled'],
    ['too few samples to call it a stall', window([10, 30], [10, 30]), 'catching_up'],
  ])('%s', (_, samples, expected) => {
    expect(evaluatePartition(samples, rules)).toBe(expected);
  });

  it('counts a lag within allowedLag as zero', () => {
    expect(evaluatePartition(window([10, 3], [10, 3], [10, 3]), { ...rules, allowedLag: 5 })).toBe('live');
  });

  it('is the worst partition state of the group', () => {
    const stalled = window([10, 30], [10, 30], [10, 30]).map((sample) => ({ ...sample, partitionId: '1' }));
    expect(evaluateCatchUp([window([1, 0]), window([10, 90], [40, 60]), stalled], rules)).toBe('stalled');
    expect(evaluateCatchUp([window([1, 0]), window([10, 90], [40, 60])], rules)).toBe('catching_up');
    expect(evaluateCatchUp([], rules)).toBe('live');
  });

  it('keeps the newest samples of each partition', () => {
    const windows = new Map<string, PartitionSample[]>();
    for (const sample of window([1, 9], [2, 8], [3, 7], [4, 6])) pushSample(windows, sample, 3);
    expect(windows.get('club-data/0')?.map((sample) => sample.checkpointSequenceNumber)).toEqual([2, 3, 4]);
  });
});

describe('lag from sequence numbers', () => {
  const head = { topic: 'club-data', partitionId: '0', beginningSequenceNumber: 100, lastEnqueuedSequenceNumber: 149, isEmpty: false };

  it('is last enqueued minus checkpointed, never negative', () => {
    expect(partitionLag(head, 139)).toBe(10);
    expect(partitionLag(head, 149)).toBe(0);
    expect(partitionLag(head, 160)).toBe(0);
  });

  it('counts every retained event without a checkpoint (the group starts from the earliest), none on an empty partition', () => {
    expect(partitionLag(head, null)).toBe(50);
    expect(partitionLag({ ...head, beginningSequenceNumber: 0, lastEnqueuedSequenceNumber: -1, isEmpty: true }, null)).toBe(0);
  });

  it('sums per topic: totalLag, the largest topic as maxTopicLag, topics with lag largest first', () => {
    const sample = (topic: string, partitionId: string, lag: number): PartitionSample => ({
      topic,
      partitionId,
      checkpointSequenceNumber: 0,
      lastEnqueuedSequenceNumber: lag,
      lag,
      sampledAt: at(0),
    });
    expect(summariseLag([sample('a', '0', 5), sample('a', '1', 0), sample('b', '0', 7), sample('b', '1', 1), sample('c', '0', 0)])).toEqual(
      {
        totalLag: 13,
        maxTopicLag: 8,
        lagTopics: [
          { topic: 'b', lag: 8, partitions: { '0': 7, '1': 1 } },
          { topic: 'a', lag: 5, partitions: { '0': 5 } },
        ],
      },
    );
    expect(summariseLag([])).toEqual({ totalLag: 0, maxTopicLag: 0, lagTopics: [] });
  });
});
