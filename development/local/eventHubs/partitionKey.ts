/**
 * Maps a partition key to a partition: the same key always lands in the same partition, so
 * events sharing a key keep their order. The service uses its own hash, so the mapping differs
 * from Azure's; only its stability matters for local runs.
 */
export function partitionForKey(partitionKey: string, partitionCount: number): number {
  // FNV-1a, 32 bit.
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(partitionKey, 'utf8')) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % partitionCount;
}
