import type { Logger } from '../shared/log/logger';
import { nextRunDelaySeconds } from './backoff';

/** Why a run failed, as the box interface shows it. */
export interface PushRunError<TReason extends string> {
  reason: TReason;
  message: string;
  httpStatus?: number;
  at: string;
}

export type PushRunOutcome<TResult, TSkipped, TReason extends string> =
  { ok: true; result: TResult; skipped: TSkipped[]; at: string } | { ok: false; error: PushRunError<TReason> };

/** What a push's status endpoint shows. */
export interface PushLoopStatus<TResult, TSkipped, TReason extends string> {
  enabled: boolean;
  intervalSeconds: number;
  running: boolean;
  lastRunAt: string | null;
  lastSuccessAt: string | null;
  /** Counts of the last successful run, plus the mirror rows it had to skip. */
  lastResult: (TResult & { skipped: TSkipped[] }) | null;
  /** The failure of the last run; null once a run succeeds again. */
  lastError: PushRunError<TReason> | null;
  consecutiveFailures: number;
  nextRunAt: string | null;
}

export interface PushLoop<TResult, TSkipped, TReason extends string> {
  /** Runs one push now (joins a run already in progress). */
  runOnce(): Promise<PushRunOutcome<TResult, TSkipped, TReason>>;
  status(): PushLoopStatus<TResult, TSkipped, TReason>;
  /** Starts the loop when the push is enabled: a run now, then on the interval. */
  start(): void;
  /** Stops the loop and waits for a run in progress. */
  stop(): Promise<void>;
}

export interface PushLoopOptions<TResult, TSkipped, TReason extends string> {
  /** Prefix of the log events: `<name>_succeeded`, `<name>_failed`. */
  name: string;
  enabled: boolean;
  intervalSeconds: number;
  edgeApiToken: string | undefined;
  now: () => Date;
  log: Logger;
  /** What a run answers while the push is disabled: a manual run does not bypass the operator's switch. */
  disabled: { reason: TReason; message: string };
  /** One push with the token; throws on failure. */
  push(token: string): Promise<{ result: TResult; skipped: TSkipped[] }>;
  /** The reason, message and HTTP status of whatever `push` threw. */
  failureOf(error: unknown): { reason: TReason; message: string; httpStatus?: number };
  /** The success log line's fields (default: the result's own). */
  describe?(result: TResult): Record<string, unknown>;
}

/**
 * The loop every push of the box shares (club master, starter lists): single-flight runs, a
 * status kept for the box interface, and failures that never stop the loop but back off (see
 * nextRunDelaySeconds). Manual runs count like loop runs: a failure backs off, a success waits
 * the full interval.
 */
export function createPushLoop<TResult extends object, TSkipped, TReason extends string>(
  options: PushLoopOptions<TResult, TSkipped, TReason>,
): PushLoop<TResult, TSkipped, TReason> {
  type Outcome = PushRunOutcome<TResult, TSkipped, TReason>;
  const { log, now } = options;
  const state: PushLoopStatus<TResult, TSkipped, TReason> = {
    enabled: options.enabled,
    intervalSeconds: options.intervalSeconds,
    running: false,
    lastRunAt: null,
    lastSuccessAt: null,
    lastResult: null,
    lastError: null,
    consecutiveFailures: 0,
    nextRunAt: null,
  };
  let inFlight: Promise<Outcome> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let looping = false;

  async function attempt(token: string): Promise<Outcome> {
    const at = now().toISOString();
    state.running = true;
    state.lastRunAt = at;
    try {
      const { result, skipped } = await options.push(token);
      Object.assign(state, { lastSuccessAt: at, lastResult: { ...result, skipped }, lastError: null, consecutiveFailures: 0 });
      log.info(`${options.name}_succeeded`, { ...(options.describe?.(result) ?? result), skipped: skipped.length });
      return { ok: true, result, skipped, at };
    } catch (error) {
      const failure = options.failureOf(error);
      const runError: PushRunError<TReason> = {
        reason: failure.reason,
        message: failure.message,
        ...(failure.httpStatus !== undefined ? { httpStatus: failure.httpStatus } : {}),
        at,
      };
      state.lastError = runError;
      state.consecutiveFailures += 1;
      log.warn(`${options.name}_failed`, {
        reason: runError.reason,
        message: runError.message,
        consecutiveFailures: state.consecutiveFailures,
      });
      return { ok: false, error: runError };
    } finally {
      state.running = false;
    }
  }

  function runOnce(): Promise<Outcome> {
    const token = options.edgeApiToken;
    if (!options.enabled || token === undefined) {
      return Promise.resolve({ ok: false, error: { ...options.disabled, at: now().toISOString() } });
    }
    inFlight ??= attempt(token).finally(() => {
      inFlight = undefined;
      scheduleNext();
    });
    return inFlight;
  }

  /** (Re)schedules the loop's next run after an attempt, replacing any earlier schedule. */
  function scheduleNext(): void {
    if (!looping) return;
    if (timer) clearTimeout(timer);
    const delaySeconds = nextRunDelaySeconds(options.intervalSeconds, state.consecutiveFailures);
    state.nextRunAt = new Date(now().getTime() + delaySeconds * 1000).toISOString();
    timer = setTimeout(() => {
      timer = undefined;
      state.nextRunAt = null;
      void runOnce();
    }, delaySeconds * 1000);
  }

  return {
    runOnce,
    status: () => structuredClone(state),
    start() {
      if (!options.enabled || looping) return;
      looping = true;
      void runOnce();
    },
    async stop() {
      looping = false;
      if (timer) clearTimeout(timer);
      timer = undefined;
      state.nextRunAt = null;
      await inFlight;
    },
  };
}
