/**
 * Lag and catchUpState of the long-running worker, pure (docs/ingest-worker.md has the rules as
 * a table). Lag comes from sequence numbers only, never offsets: per partition the partition's
 * last enqueued sequence number minus the consumer group's checkpointed one. A "topic" is an
 * event hub (Event Hubs maps a Kafka topic to one), so lagTopics names hubs with a backlog.
 *
 * catchUpState follows Burrow's evaluation over a window of recent samples per partition, in
 * this order: lag zero (≤ allowedLag) in any sample of the window → live; the checkpoint did not
 * move across a window of at least `minSamples` samples while lag > 0 → stalled; otherwise
 * (lag > 0, the checkpoint moves) → catching_up. The worker's state is the worst partition's.
 */

export type CatchUpState = 'live' | 'catching_up' | 'stalled';

/** What the hub says about one partition (getPartitionProperties). */
export interface PartitionHead {
  topic: string;
  partitionId: string;
  beginningSequenceNumber: number;
  /** -1 while the partition never held an event. */
  lastEnqueuedSequenceNumber: number;
  isEmpty: boolean;
}

export interface PartitionSample {
  topic: string;
  partitionId: string;
  /** The checkpointed sequence number; null when the group has none for this partition. */
  checkpointSequenceNumber: number | null;
  lastEnqueuedSequenceNumber: number;
  lag: number;
  sampledAt: Date;
}

export interface CatchUpRules {
  /** A lag at or below this counts as zero (Burrow's allowed-lag). */
  allowedLag: number;
  /** Samples a partition's window keeps (Burrow's intervals). */
  windowSize: number;
  /** Samples needed before a partition can be judged stalled (Burrow's minimum-complete). */
  minSamples: number;
}

export const DEFAULT_CATCH_UP_RULES: CatchUpRules = { allowedLag: 0, windowSize: 10, minSamples: 3 };

/**
 * Events of a partition the group has not checkpointed. Without a checkpoint the group starts
 * from the earliest retained event, so every retained event counts.
 */
export function partitionLag(head: PartitionHead, checkpointSequenceNumber: number | null): number {
  if (checkpointSequenceNumber === null) {
    return head.isEmpty ? 0 : Math.max(0, head.lastEnqueuedSequenceNumber - head.beginningSequenceNumber + 1);
  }
  return Math.max(0, head.lastEnqueuedSequenceNumber - checkpointSequenceNumber);
}

export function sampleOf(head: PartitionHead, checkpointSequenceNumber: number | null, sampledAt: Date): PartitionSample {
  return {
    topic: head.topic,
    partitionId: head.partitionId,
    checkpointSequenceNumber,
    lastEnqueuedSequenceNumber: head.lastEnqueuedSequenceNumber,
    lag: partitionLag(head, checkpointSequenceNumber),
    sampledAt,
  };
}

/** One partition's window, oldest first, judged by the rules above. */
export function evaluatePartition(window: readonly PartitionSample[], rules: CatchUpRules = DEFAULT_CATCH_UP_RULES): CatchUpState {
  const current = window.at(-1);
  if (!current || current.lag <= rules.allowedLag) return 'live';
  if (window.some((sample) => sample.lag <= rules.allowedLag)) return 'live';
  const first = window[0]?.checkpointSequenceNumber;
  const checkpointMoved = window.some((sample) => sample.checkpointSequenceNumber !== first);
  if (window.length >= rules.minSamples && !checkpointMoved) return 'stalled';
  return 'catching_up';
}

const SEVERITY: Record<CatchUpState, number> = { live: 0, catching_up: 1, stalled: 2 };

/** The worst state over every partition (Burrow's group status); live without partitions. */
export function evaluateCatchUp(windows: Iterable<readonly PartitionSample[]>, rules: CatchUpRules = DEFAULT_CATCH_UP_RULES): CatchUpState {
  let worst: CatchUpState = 'live';
  for (const window of windows) {
    const state = evaluatePartition(window, rules);
    if (SEVERITY[state] > SEVERITY[worst]) worst = state;
  }
  return worst;
}

/** Appends a sample to its partition's window, keeping the newest `windowSize`. */
export function pushSample(windows: Map<string, PartitionSample[]>, sample: PartitionSample, windowSize: number): void {
  const key = `${sample.topic}/${sample.partitionId}`;
  const window = [...(windows.get(key) ?? []), sample].slice(-windowSize);
  windows.set(key, window);
}

export interface TopicLag {
  topic: string;
  lag: number;
  /** Lag per partition id, only partitions with lag. */
  partitions: Record<string, number>;
}

export interface LagSummary {
  totalLag: number;
  /** The largest per-topic sum. */
  maxTopicLag: number;
  /** Topics with lag above allowedLag on any partition, largest first. */
  lagTopics: TopicLag[];
}

export function summariseLag(samples: readonly PartitionSample[], allowedLag = 0): LagSummary {
  const topics = new Map<string, TopicLag>();
  for (const sample of samples) {
    const topic = topics.get(sample.topic) ?? { topic: sample.topic, lag: 0, partitions: {} };
    topic.lag += sample.lag;
    if (sample.lag > 0) topic.partitions[sample.partitionId] = sample.lag;
    topics.set(sample.topic, topic);
  }
  const all = [...topics.values()];
  return {
    totalLag: all.reduce((sum, topic) => sum + topic.lag, 0),
    maxTopicLag: all.reduce((max, topic) => Math.max(max, topic.lag), 0),
    lagTopics: all
      .filter((topic) => Object.values(topic.partitions).some((lag) => lag > allowedLag))
      .sort((a, b) => b.lag - a.lag || (a.topic < b.topic ? -1 : 1)),
  };
}
