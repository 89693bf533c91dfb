import type { PartitionOwnership } from '@azure/event-hubs';
import { checkpointStore } from './workerSupport';

/** The table checkpoint store against Azurite: etag-guarded claims, checkpoints per group. */
describe('table checkpoint store', () => {
  const scope = { fullyQualifiedNamespace: 'ns.servicebus.windows.net', eventHubName: 'club-data', consumerGroup: '$Default' };
  const claim = (ownerId: string, etag?: string): PartitionOwnership => ({
    ...scope,
    partitionId: '0',
    ownerId,
    ...(etag ? { etag } : {}),
  });

  it('grants one of two concurrent first claims; the loser is left out, not an error', async () => {
    const store = checkpointStore();
    const [a, b] = await Promise.all([store.claimOwnership([claim('replica-a')]), store.claimOwnership([claim('replica-b')])]);
    expect(a.length + b.length).toBe(1);
    const [owner] = await store.listOwnership(scope.fullyQualifiedNamespace, scope.eventHubName, scope.consumerGroup);
    expect(owner?.ownerId).toBe([...a, ...b][0]?.ownerId);
    expect(owner?.etag).toBe([...a, ...b][0]?.etag);
    expect(owner?.lastModifiedTimeInMs).toEqual(expect.any(Number));
  });

  it('takes over with the etag it saw, and refuses a claim whose etag moved on', async () => {
    const store = checkpointStore();
    const [first] = await store.claimOwnership([claim('replica-a')]);
    const [renewed] = await store.claimOwnership([claim('replica-a', first?.etag)]);
    expect(renewed?.etag).not.toBe(first?.etag);
    // replica-b saw the first etag: its steal loses the race (412).
    expect(await store.claimOwnership([claim('replica-b', first?.etag)])).toEqual([]);
    const [taken] = await store.claimOwnership([claim('replica-b', renewed?.etag)]);
    expect(taken?.ownerId).toBe('replica-b');
    const owners = await store.listOwnership(scope.fullyQualifiedNamespace, scope.eventHubName, scope.consumerGroup);
    expect(owners.map((owner) => owner.ownerId)).toEqual(['replica-b']);
  });

  it('keeps checkpoints per consumer group and clears one group only', async () => {
    const store = checkpointStore();
    await store.updateCheckpoint({ ...scope, partitionId: '1', sequenceNumber: 41, offset: '8800' });
    await store.updateCheckpoint({ ...scope, partitionId: '1', sequenceNumber: 42, offset: '9000' });
    await store.updateCheckpoint({
      ...scope,
      consumerGroup: 'shooting-club-shooter-backfill',
      partitionId: '1',
      sequenceNumber: 7,
      offset: '700',
    });
    const checkpoints = await store.listCheckpoints(scope.fullyQualifiedNamespace, scope.eventHubName, '$default');
    expect(checkpoints).toEqual([
      { ...scope, consumerGroup: '$default', partitionId: '1', sequenceNumber: 42, offset: '9000', updatedAt: expect.any(Date) as Date },
    ]);

    await store.clear(scope.fullyQualifiedNamespace, scope.eventHubName, 'shooting-club-shooter-backfill');
    expect(await store.listCheckpoints(scope.fullyQualifiedNamespace, scope.eventHubName, 'shooting-club-shooter-backfill')).toEqual([]);
    expect(await store.listCheckpoints(scope.fullyQualifiedNamespace, scope.eventHubName, '$Default')).toHaveLength(1);
  });
});
