import type { EventHubConsumerClient } from '@azure/event-hubs';
import { sampleOf, type PartitionSample } from './catchUp';
import type { TableCheckpointStore } from './checkpointStore';

/**
 * One lag sample of a consumer group: every partition's last enqueued sequence number from the
 * hub (getPartitionProperties) against the group's checkpoint in the store. Throws when either
 * cannot be read; the caller turns that into lagErrorMessage.
 */
export async function sampleGroupLag(
  client: EventHubConsumerClient,
  store: TableCheckpointStore,
  consumerGroup: string,
  now: Date,
): Promise<PartitionSample[]> {
  const eventHubName = client.eventHubName;
  const partitionIds = await client.getPartitionIds();
  const checkpoints = await store.listCheckpoints(client.fullyQualifiedNamespace, eventHubName, consumerGroup);
  const checkpointed = new Map(checkpoints.map((checkpoint) => [checkpoint.partitionId, checkpoint.sequenceNumber]));
  const heads = await Promise.all(partitionIds.map((partitionId) => client.getPartitionProperties(partitionId)));
  return heads.map((head) =>
    sampleOf(
      {
        topic: eventHubName,
        partitionId: head.partitionId,
        beginningSequenceNumber: head.beginningSequenceNumber,
        lastEnqueuedSequenceNumber: head.lastEnqueuedSequenceNumber,
        isEmpty: head.isEmpty,
      },
      checkpointed.get(head.partitionId) ?? null,
      now,
    ),
  );
}
