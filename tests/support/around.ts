/**
 * Starts something in the describe block's beforeAll and stops it in its afterAll, in declaration
 * order with the block's other hooks; the getter returned throws outside that span, naming `what`.
 */
export function useAround<T>(what: string, start: () => Promise<T>, stop: (value: T) => unknown, timeoutMs?: number): () => T {
  let value: T | undefined;
  let running = false;
  beforeAll(async () => {
    value = await start();
    running = true;
  }, timeoutMs);
  afterAll(async () => {
    if (!running) return;
    running = false;
    await stop(value as T);
  });
  return () => {
    if (!running) throw new Error(`${what} runs between the beforeAll and afterAll of its describe block`);
    return value as T;
  };
}
