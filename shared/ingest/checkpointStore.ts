import { odata, RestError, type TableClient, type TableEntityResult } from '@azure/data-tables';
import type { Checkpoint, CheckpointStore, PartitionOwnership } from '@azure/event-hubs';

/**
 * The Event Hubs SDK's `CheckpointStore` on one Azure Storage table (Azurite locally). Every
 * replica of the worker shares it, so they share the consumer group state: who owns which
 * partition (etag-guarded claims) and where each partition was checkpointed.
 *
 * Layout: PartitionKey = `<namespace>|<event hub>|<consumer group>` (lower-cased, URI-encoded
 * so `/`, `\`, `#` and `?` never reach a key), RowKey = `ownership|<partition>` or
 * `checkpoint|<partition>`. The entity's Timestamp is the ownership's lastModifiedTimeInMs (the
 * SDK treats an ownership not renewed within its expiration interval as free) and the
 * checkpoint's modification time (the lag evaluation's commit time).
 */
export interface StoredCheckpoint extends Checkpoint {
  /** When the checkpoint was last written (the table entity's Timestamp). */
  updatedAt: Date | null;
}

interface OwnershipEntity {
  partitionKey: string;
  rowKey: string;
  ownerId: string;
}

interface CheckpointEntity {
  partitionKey: string;
  rowKey: string;
  sequenceNumber: number;
  offset: string;
}

const OWNERSHIP = 'ownership|';
const CHECKPOINT = 'checkpoint|';

const part = (value: string) => encodeURIComponent(value.toLowerCase());

export function scopeKey(fullyQualifiedNamespace: string, eventHubName: string, consumerGroup: string): string {
  return `${part(fullyQualifiedNamespace)}|${part(eventHubName)}|${part(consumerGroup)}`;
}

/** 409 (another claim created the row first) and 412 (its etag moved on): a lost race. */
function lostRace(error: unknown): boolean {
  return error instanceof RestError && (error.statusCode === 409 || error.statusCode === 412);
}

const modifiedMs = (entity: { timestamp?: string }) => (entity.timestamp ? Date.parse(entity.timestamp) : undefined);

export class TableCheckpointStore implements CheckpointStore {
  private created: Promise<void> | undefined;

  constructor(private readonly table: TableClient) {}

  /** Creates the table once per process (an existing table is fine). */
  ensureTable(): Promise<void> {
    this.created ??= this.table.createTable().catch((error: unknown) => {
      this.created = undefined;
      throw error;
    });
    return this.created;
  }

  private async list<T extends object>(scope: string, prefix: string): Promise<TableEntityResult<T>[]> {
    await this.ensureTable();
    const entities: TableEntityResult<T>[] = [];
    const filter = odata`PartitionKey eq ${scope} and RowKey ge ${prefix} and RowKey lt ${`${prefix}~`}`;
    for await (const entity of this.table.listEntities<T>({ queryOptions: { filter } })) entities.push(entity);
    return entities;
  }

  /** The rows of one kind (`prefix`) of a consumer group, each with the partition it is about. */
  private async rowsOf<T extends { rowKey: string }>(
    fullyQualifiedNamespace: string,
    eventHubName: string,
    consumerGroup: string,
    prefix: string,
  ): Promise<{ partition: Omit<Checkpoint, 'sequenceNumber' | 'offset'>; entity: TableEntityResult<T> }[]> {
    const entities = await this.list<T>(scopeKey(fullyQualifiedNamespace, eventHubName, consumerGroup), prefix);
    return entities.map((entity) => ({
      partition: { fullyQualifiedNamespace, eventHubName, consumerGroup, partitionId: (entity.rowKey ?? '').slice(prefix.length) },
      entity,
    }));
  }

  async listOwnership(fullyQualifiedNamespace: string, eventHubName: string, consumerGroup: string): Promise<PartitionOwnership[]> {
    const rows = await this.rowsOf<OwnershipEntity>(fullyQualifiedNamespace, eventHubName, consumerGroup, OWNERSHIP);
    return rows.map(({ partition, entity }) => ({
      ...partition,
      ownerId: entity.ownerId,
      lastModifiedTimeInMs: modifiedMs(entity),
      etag: entity.etag,
    }));
  }

  /**
   * Claims each ownership with the etag the caller last saw (none: the row must not exist yet).
   * Returns the claims granted, with their new etag and time; a lost race is left out, not thrown.
   */
  async claimOwnership(partitionOwnership: PartitionOwnership[]): Promise<PartitionOwnership[]> {
    await this.ensureTable();
    const granted: PartitionOwnership[] = [];
    for (const claim of partitionOwnership) {
      const entity: OwnershipEntity = {
        partitionKey: scopeKey(claim.fullyQualifiedNamespace, claim.eventHubName, claim.consumerGroup),
        rowKey: `${OWNERSHIP}${claim.partitionId}`,
        ownerId: claim.ownerId,
      };
      try {
        const response = claim.etag
          ? await this.table.updateEntity(entity, 'Replace', { etag: claim.etag })
          : await this.table.createEntity(entity);
        if (!response.etag) continue;
        granted.push({ ...claim, etag: response.etag, lastModifiedTimeInMs: Date.now() });
      } catch (error) {
        if (lostRace(error)) continue;
        throw error;
      }
    }
    return granted;
  }

  async listCheckpoints(fullyQualifiedNamespace: string, eventHubName: string, consumerGroup: string): Promise<StoredCheckpoint[]> {
    const rows = await this.rowsOf<CheckpointEntity>(fullyQualifiedNamespace, eventHubName, consumerGroup, CHECKPOINT);
    return rows.map(({ partition, entity }) => ({
      ...partition,
      sequenceNumber: Number(entity.sequenceNumber),
      offset: String(entity.offset),
      updatedAt: entity.timestamp ? new Date(entity.timestamp) : null,
    }));
  }

  /** Writes the checkpoint as given (the SDK only checkpoints forward within one owner's pump). */
  async updateCheckpoint(checkpoint: Checkpoint): Promise<void> {
    await this.ensureTable();
    const entity: CheckpointEntity = {
      partitionKey: scopeKey(checkpoint.fullyQualifiedNamespace, checkpoint.eventHubName, checkpoint.consumerGroup),
      rowKey: `${CHECKPOINT}${checkpoint.partitionId}`,
      sequenceNumber: checkpoint.sequenceNumber,
      offset: String(checkpoint.offset),
    };
    await this.table.upsertEntity(entity, 'Replace');
  }

  /** Drops every ownership and checkpoint of a consumer group (a fresh backfill group starts clean). */
  async clear(fullyQualifiedNamespace: string, eventHubName: string, consumerGroup: string): Promise<void> {
    const scope = scopeKey(fullyQualifiedNamespace, eventHubName, consumerGroup);
    const rows = [...(await this.list<OwnershipEntity>(scope, OWNERSHIP)), ...(await this.list<CheckpointEntity>(scope, CHECKPOINT))];
    for (const row of rows) await this.table.deleteEntity(row.partitionKey, row.rowKey).catch(() => undefined);
  }
}
