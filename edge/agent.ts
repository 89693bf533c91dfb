import type postgres from 'postgres';
import type { BoxConsentReport } from '../shared/boxConnector/consentReport';
import type { SyncResult } from '../shared/clubMaster/schemas';
import type { Logger } from '../shared/log/logger';
import { systemClock, type Clock } from './clock';
import { pushKnownClubs, SyncFailure, type FailureReason } from './cloudClient';
import type { EdgeConfig } from './config';
import { invalidReportMessage, prepareReport, readMirrorClubs, type SkippedClub } from './mirror';
import { createPushLoop, type PushLoop, type PushLoopStatus, type PushRunError, type PushRunOutcome } from './pushLoop';

export type RunError = PushRunError<FailureReason>;

export type RunOutcome = PushRunOutcome<SyncResult, SkippedClub, FailureReason>;

/** What GET /api/club-master-sync/status shows. */
export type AgentStatus = PushLoopStatus<SyncResult, SkippedClub, FailureReason>;

export type Agent = PushLoop<SyncResult, SkippedClub, FailureReason>;

/**
 * The club master push of one box: reads the club software's clubs from the mirror database and
 * sends the complete list to the cloud, with the club's data-sharing consent (`consent`), on the
 * shared push loop (edge/pushLoop.ts).
 */
export function createAgent(
  config: EdgeConfig,
  mirror: postgres.Sql,
  log: Logger,
  clock: Clock = systemClock,
  consent?: () => Promise<BoxConsentReport>,
): Agent {
  // parseEdgeConfig already refuses this; checked here too so that a run never lacks a token.
  if (config.syncEnabled && config.edgeApiToken === undefined) {
    throw new Error('SVC_EDGE_API_TOKEN is required when SVC_CLUB_MASTER_SYNC_ENABLED is true.');
  }
  return createPushLoop({
    name: 'club_master_sync',
    enabled: config.syncEnabled,
    intervalSeconds: config.syncIntervalSeconds,
    edgeApiToken: config.edgeApiToken,
    now: () => clock.now(),
    log,
    // The operator releases club master data by enabling the push; a manual run does not bypass that.
    disabled: { reason: 'sync_disabled', message: 'The club master push is disabled (SVC_CLUB_MASTER_SYNC_ENABLED=false).' },
    async push(token) {
      const rows = await readMirrorClubs(mirror).catch((error: unknown) => {
        throw new SyncFailure('mirror_unavailable', `The mirror database could not be read: ${errorMessage(error)}.`);
      });
      const report = prepareReport(rows);
      if (!report.ok) throw new SyncFailure('mirror_rows_invalid', invalidReportMessage(report.invalid, rows.length));
      const result = await pushKnownClubs(
        { baseUrl: config.cloudBaseUrl, token, timeoutSeconds: config.cloudTimeoutSeconds },
        report.clubs,
        await consent?.(),
      );
      return { result, skipped: report.merged };
    },
    failureOf: (error) => (error instanceof SyncFailure ? error : new SyncFailure('cloud_error', errorMessage(error))),
  });
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
