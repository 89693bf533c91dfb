/** Runs `work` over `items` with at most `limit` in flight; answers the results in the items' order. */
export async function inParallel<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(Math.max(1, limit), items.length) }, async () => {
    for (let index = next++; index < items.length; index = next++) results[index] = await work(items[index] as T);
  });
  await Promise.all(lanes);
  return results;
}
