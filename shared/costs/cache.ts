/**
 * An in-memory cache in which concurrent misses for one key share one load (single flight).
 * Per instance: on Azure Functions it starts empty on every cold start and on every scaled-out
 * instance.
 */
export interface CacheHit<T> {
  value: T;
  /** When the value was loaded (ms since the epoch). */
  loadedAt: number;
  /** Answered from memory rather than by a load made for this call (or one it joined). */
  cached: boolean;
  /** Older than the time to live: the load failed in a way that allows the last value (see `staleOn`). */
  stale: boolean;
}

export interface LoadOptions {
  /** Failures for which the last value, however old, is better than an error. */
  staleOn?: (error: unknown) => boolean;
  /** Seconds during which a failure answers again without a new load (a provider's "retry after"). */
  holdFor?: (error: unknown) => number | undefined;
  /** Whether a loaded value may be kept (a value built on stale data should not live a full TTL). */
  keep?: (value: unknown) => boolean;
}

interface Entry<T> {
  value: T;
  loadedAt: number;
}

export class SingleFlightCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private readonly loading = new Map<string, Promise<CacheHit<T>>>();
  private readonly held = new Map<string, { error: unknown; until: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number,
    private readonly maxEntries = 200,
  ) {}

  async get(key: string, load: () => Promise<T>, options: LoadOptions = {}): Promise<CacheHit<T>> {
    const now = this.now();
    const entry = this.entries.get(key);
    if (entry && now - entry.loadedAt < this.ttlMs) return { ...entry, cached: true, stale: false };
    const hold = this.held.get(key);
    if (hold && now < hold.until) {
      if (entry && options.staleOn?.(hold.error)) return { ...entry, cached: true, stale: true };
      throw hold.error;
    }
    const pending = this.loading.get(key);
    if (pending) return pending;

    const started = this.start(key, load, options);
    this.loading.set(key, started);
    return started;
  }

  private async start(key: string, load: () => Promise<T>, options: LoadOptions): Promise<CacheHit<T>> {
    try {
      const value = await load();
      const loadedAt = this.now();
      this.held.delete(key);
      if (options.keep?.(value) ?? true) this.remember(key, { value, loadedAt });
      return { value, loadedAt, cached: false, stale: false };
    } catch (error) {
      const seconds = options.holdFor?.(error);
      if (seconds) this.held.set(key, { error, until: this.now() + seconds * 1000 });
      const entry = this.entries.get(key);
      if (entry && options.staleOn?.(error)) return { ...entry, cached: true, stale: true };
      throw error;
    } finally {
      this.loading.delete(key);
    }
  }

  private remember(key: string, entry: Entry<T>): void {
    this.entries.set(key, entry);
    if (this.entries.size <= this.maxEntries) return;
    const now = this.now();
    for (const [old, { loadedAt }] of this.entries) if (now - loadedAt >= this.ttlMs) this.entries.delete(old);
    // Still full of fresh entries: drop the oldest inserted.
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
  }
}
