import type postgres from 'postgres';
import type { SyncResult } from '../shared/clubMaster/schemas';
import type { Logger } from '../shared/log/logger';
import { nextRunDelaySeconds } from './backoff';
import { systemClock, type Clock } from './clock';
import { pushKnownClubs, SyncFailure, type FailureReason } from './cloudClient';
import type { EdgeConfig } from './config';
import { prepareReport, readMirrorClubs, type SkippedClub } from './mirror';

export interface RunError {
  reason: FailureReason;
  message: string;
  httpStatus?: number;
  at: string;
}

export type RunOutcome = { ok: true; result: SyncResult; skipped: SkippedClub[]; at: string } | { ok: false; error: RunError };

/** What GET /api/club-master-sync/status shows. */
export interface AgentStatus {
  enabled: boolean;
  intervalSeconds: number;
  running: boolean;
  lastRunAt: string | null;
  lastSuccessAt: string | null;
  /** Counts of the last successful run, plus the mirror rows it had to skip. */
  lastResult: (SyncResult & { skipped: SkippedClub[] }) | null;
  /** The failure of the last run; null once a run succeeds again. */
  lastError: RunError | null;
  consecutiveFailures: number;
  nextRunAt: string | null;
}

export interface Agent {
  /** Runs one sync now (joins a run already in progress). */
  runOnce(): Promise<RunOutcome>;
  status(): AgentStatus;
  /** Starts the push loop when the push is enabled: a run now, then on the interval. */
  start(): void;
  /** Stops the loop and waits for a run in progress. */
  stop(): Promise<void>;
}

/**
 * The club master push of one box: reads the club software's clubs from the mirror database and
 * sends the complete list to the cloud. Failures never stop the loop; they are kept in the status
 * and the next attempt backs off (see nextRunDelaySeconds).
 */
export function createAgent(config: EdgeConfig, mirror: postgres.Sql, log: Logger, clock: Clock = systemClock): Agent {
  // parseEdgeConfig already refuses this; checked here too so that a run never lacks a token.
  if (config.syncEnabled && config.edgeApiToken === undefined) {
    throw new Error('SVC_EDGE_API_TOKEN is required when SVC_CLUB_MASTER_SYNC_ENABLED is true.');
  }
  const state: AgentStatus = {
    enabled: config.syncEnabled,
    intervalSeconds: config.syncIntervalSeconds,
    running: false,
    lastRunAt: null,
    lastSuccessAt: null,
    lastResult: null,
    lastError: null,
    consecutiveFailures: 0,
    nextRunAt: null,
  };
  let inFlight: Promise<RunOutcome> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let looping = false;

  async function attempt(token: string): Promise<RunOutcome> {
    const at = clock.now().toISOString();
    state.running = true;
    state.lastRunAt = at;
    try {
      const rows = await readMirrorClubs(mirror).catch((error: unknown) => {
        throw new SyncFailure('mirror_unavailable', `The mirror database could not be read: ${errorMessage(error)}.`);
      });
      const { clubs, skipped } = prepareReport(rows);
      // An empty mirror is a decommission and is pushed as []; rows that all failed the checks are
      // not: pushing [] would mark every club of the box deleted because of a broken mirror.
      if (rows.length > 0 && clubs.length === 0) {
        const first = skipped[0];
        throw new SyncFailure(
          'mirror_rows_invalid',
          `All ${rows.length} mirror rows failed the checks, so nothing was sent; first: ${first?.vereinsId} ${first?.reason}.`,
        );
      }
      const result = await pushKnownClubs({ baseUrl: config.cloudBaseUrl, token, timeoutSeconds: config.cloudTimeoutSeconds }, clubs);
      state.lastSuccessAt = at;
      state.lastResult = { ...result, skipped };
      state.lastError = null;
      state.consecutiveFailures = 0;
      log.info('club_master_sync_succeeded', { ...result, skipped: skipped.length });
      return { ok: true, result, skipped, at };
    } catch (error) {
      const failure = error instanceof SyncFailure ? error : new SyncFailure('cloud_error', errorMessage(error));
      const runError: RunError = {
        reason: failure.reason,
        message: failure.message,
        ...(failure.httpStatus !== undefined ? { httpStatus: failure.httpStatus } : {}),
        at,
      };
      state.lastError = runError;
      state.consecutiveFailures += 1;
      log.warn('club_master_sync_failed', {
        reason: runError.reason,
        message: runError.message,
        consecutiveFailures: state.consecutiveFailures,
      });
      return { ok: false, error: runError };
    } finally {
      state.running = false;
    }
  }

  function runOnce(): Promise<RunOutcome> {
    // The token check only narrows the type: createAgent refuses an enabled push without one.
    const token = config.edgeApiToken;
    if (!config.syncEnabled || token === undefined) {
      // The operator releases club master data by enabling the push; a manual run does not bypass that.
      const error: RunError = {
        reason: 'sync_disabled',
        message: 'The club master push is disabled (SVC_CLUB_MASTER_SYNC_ENABLED=false).',
        at: clock.now().toISOString(),
      };
      return Promise.resolve({ ok: false, error });
    }
    inFlight ??= attempt(token).finally(() => {
      inFlight = undefined;
      // Manual runs count like loop runs: a failure backs off, a success waits the full interval.
      scheduleNext();
    });
    return inFlight;
  }

  /** (Re)schedules the loop's next run after an attempt, replacing any earlier schedule. */
  function scheduleNext(): void {
    if (!looping) return;
    if (timer) clearTimeout(timer);
    const delaySeconds = nextRunDelaySeconds(config.syncIntervalSeconds, state.consecutiveFailures);
    state.nextRunAt = new Date(clock.now().getTime() + delaySeconds * 1000).toISOString();
    timer = setTimeout(() => void tick(), delaySeconds * 1000);
  }

  async function tick(): Promise<void> {
    timer = undefined;
    state.nextRunAt = null;
    await runOnce();
  }

  return {
    runOnce,
    status: () => structuredClone(state),
    start() {
      if (!config.syncEnabled || looping) return;
      looping = true;
      void tick();
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

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
