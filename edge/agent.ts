import type postgres from 'postgres';
import type { SyncResult } from '../shared/clubMaster/schemas';
import type { Logger } from '../shared/log/logger';
import { nextRunDelaySeconds } from './backoff';
import { pushKnownClubs, SyncFailure, type FailureReason } from './cloudClient';
import type { EdgeConfig } from './config';
import { prepareReport, readMirrorClubs, type SkippedClub } from './mirror';

export interface RunError {
  reason: FailureReason;
  message: string;
  httpStatus?: number;
  at: string;
}

export type RunOutcome =
  | { ok: true; result: SyncResult; skipped: SkippedClub[]; at: string }
  | { ok: false; error: RunError };

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
export function createAgent(config: EdgeConfig, mirror: postgres.Sql, log: Logger): Agent {
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

  async function attempt(): Promise<RunOutcome> {
    const at = new Date().toISOString();
    state.running = true;
    state.lastRunAt = at;
    try {
      if (!config.edgeApiToken) throw new SyncFailure('token_missing', 'SVC_EDGE_API_TOKEN is not set.');
      const rows = await readMirrorClubs(mirror).catch((error: unknown) => {
        throw new SyncFailure('mirror_unavailable', `The mirror database could not be read: ${errorMessage(error)}.`);
      });
      const { clubs, skipped } = prepareReport(rows);
      const result = await pushKnownClubs(
        { baseUrl: config.cloudBaseUrl, token: config.edgeApiToken, timeoutSeconds: config.cloudTimeoutSeconds },
        clubs,
      );
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
      log.warn('club_master_sync_failed', { reason: runError.reason, message: runError.message, consecutiveFailures: state.consecutiveFailures });
      return { ok: false, error: runError };
    } finally {
      state.running = false;
    }
  }

  function runOnce(): Promise<RunOutcome> {
    if (!config.syncEnabled) {
      // The operator releases club master data by enabling the push; a manual run does not bypass that.
      const error: RunError = {
        reason: 'sync_disabled',
        message: 'The club master push is disabled (SVC_CLUB_MASTER_SYNC_ENABLED=false).',
        at: new Date().toISOString(),
      };
      return Promise.resolve({ ok: false, error });
    }
    inFlight ??= attempt().finally(() => {
      inFlight = undefined;
    });
    return inFlight;
  }

  function scheduleNext(): void {
    if (!looping) return;
    const delaySeconds = nextRunDelaySeconds(config.syncIntervalSeconds, state.consecutiveFailures);
    state.nextRunAt = new Date(Date.now() + delaySeconds * 1000).toISOString();
    timer = setTimeout(() => void tick(), delaySeconds * 1000);
  }

  async function tick(): Promise<void> {
    timer = undefined;
    state.nextRunAt = null;
    await runOnce();
    scheduleNext();
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
