import type { Queryable } from '../db/client';
import { INITIAL_ADMISSION, type AdmissionState } from './admission';
import { listAdmission, listRecentRejects, listRunnerStatus, type RejectLogEntry, type RunnerStatusRow } from './statusRepository';

/** A heartbeat older than this makes ingest (and with it the service) down. */
export const HEARTBEAT_STALE_AFTER_MS = 3 * 60_000;

/** The ingest health block (spec "Ingest health"): what GET /healthz/ingest answers and admin diagnostics shows. */
export interface IngestHealth {
  status: 'up' | 'down' | 'unknown';
  workerState: string | null;
  runnerKind: 'event' | 'worker' | null;
  heartbeatAt: string | null;
  lastProcessedAt: string | null;
  lastSourceEventAt: string | null;
  catchUpState: 'live' | 'catching_up' | 'stalled' | null;
  lagSampledAt: string | null;
  totalLag: number | null;
  maxTopicLag: number | null;
  admissionState: AdmissionState['admissionState'] | null;
  sourceDriftState: AdmissionState['sourceDriftState'] | null;
  incidentState: AdmissionState['incidentState'] | null;
  rejectBurstCount: number | null;
  lastContractRejectAt: string | null;
  quarantineSince: string | null;
  /** Runner rows active (heartbeat, progress or an update) within the last 3 minutes. */
  runnerCount: number;
  /** Only with `detail`: error texts, reject details, club ids, quarantine context. */
  lastErrorMessage?: string | null;
  lagErrorMessage?: string | null;
  lagTopics?: unknown;
  lastContractRejectReason?: string | null;
  lastContractRejectTopic?: string | null;
  lastContractRejectEntity?: string | null;
  lastContractRejectClubId?: string | null;
  sourceDriftDetail?: string | null;
  quarantineTopic?: string | null;
  quarantineClubId?: string | null;
  quarantineEntity?: string | null;
  quarantineDetail?: string | null;
  quarantineReason?: string | null;
  recentRejects?: RejectLogEntry[];
  /** Why status is down, in words (detail only). */
  statusReason?: string | null;
}

export interface ReadIngestHealthOptions {
  /** SVC_INGEST_STATUS_ENABLED: while false the answer is `unknown` and the database is not read. */
  statusEnabled: boolean;
  /** Include error texts, reject details, club ids and quarantine context (platform_admin, ops_admin). */
  detail: boolean;
  now?: Date;
  recentRejectLimit?: number;
}

const iso = (date: Date | null | undefined) => (date ? date.toISOString() : null);

const UNKNOWN: IngestHealth = {
  status: 'unknown',
  workerState: null,
  runnerKind: null,
  heartbeatAt: null,
  lastProcessedAt: null,
  lastSourceEventAt: null,
  catchUpState: null,
  lagSampledAt: null,
  totalLag: null,
  maxTopicLag: null,
  admissionState: null,
  sourceDriftState: null,
  incidentState: null,
  rejectBurstCount: null,
  lastContractRejectAt: null,
  quarantineSince: null,
  runnerCount: 0,
};

/** Reads the ingest block: one function for /healthz, /healthz/ingest and admin diagnostics. */
export async function readIngestHealth(sql: Queryable, options: ReadIngestHealthOptions): Promise<IngestHealth> {
  if (!options.statusEnabled) return { ...UNKNOWN };
  const rows = await listRunnerStatus(sql);
  const admission = await listAdmission(sql);
  const recent = options.detail ? await listRecentRejects(sql, options.recentRejectLimit ?? 20) : [];
  return summariseIngestHealth(rows, admission, recent, options.detail, options.now ?? new Date());
}

const ACTIVE_WITHIN_MS = HEARTBEAT_STALE_AFTER_MS;

/**
 * Runner rows (instances, replicas) fold into one block: the freshest heartbeat names the runner
 * (the Functions timer runs on one instance only), any instance failing within the last 3 minutes
 * makes ingest down, and admission is the state its runner kind shares.
 */
export function summariseIngestHealth(
  rows: readonly RunnerStatusRow[],
  admissionByKind: ReadonlyMap<RunnerStatusRow['runnerKind'], AdmissionState>,
  recent: RejectLogEntry[],
  detail: boolean,
  now: Date,
): IngestHealth {
  const byHeartbeat = [...rows].sort((a, b) => (b.heartbeatAt?.getTime() ?? 0) - (a.heartbeatAt?.getTime() ?? 0));
  const primary = byHeartbeat[0];
  if (!primary) {
    const none: IngestHealth = { ...UNKNOWN, status: 'down' };
    return detail ? { ...none, statusReason: 'no runner has written a status record yet' } : none;
  }
  const within = (date: Date | null) => date !== null && now.getTime() - date.getTime() <= ACTIVE_WITHIN_MS;
  const failing = rows.find((row) => row.workerState !== 'running' && within(row.lastErrorAt));
  const admission = admissionByKind.get(primary.runnerKind) ?? INITIAL_ADMISSION;
  const lastReject = admission.lastContractReject;
  const quarantine = admission.admissionState === 'quarantined' ? admission.quarantine : null;

  const stale = !within(primary.heartbeatAt);
  const statusReason = stale
    ? `no heartbeat since ${iso(primary.heartbeatAt) ?? 'ever'}`
    : failing
      ? `workerState ${failing.workerState} on ${failing.runnerId}`
      : null;
  const latest = (pick: (row: RunnerStatusRow) => Date | null) =>
    iso(
      rows
        .map(pick)
        .filter((date): date is Date => date !== null)
        .reduce<Date | null>((found, date) => (!found || date > found ? date : found), null),
    );
  const shown = failing ?? primary;

  const health: IngestHealth = {
    status: statusReason ? 'down' : 'up',
    workerState: shown.workerState,
    runnerKind: primary.runnerKind,
    heartbeatAt: iso(primary.heartbeatAt),
    lastProcessedAt: latest((row) => row.lastProcessedAt),
    lastSourceEventAt: latest((row) => row.lastSourceEventAt),
    // The event trigger checkpoints outside the consumer-group model: no lag, never stalled.
    catchUpState: primary.runnerKind === 'event' ? 'live' : primary.catchUpState,
    lagSampledAt: iso(primary.lagSampledAt),
    totalLag: primary.runnerKind === 'event' ? null : primary.totalLag,
    maxTopicLag: primary.runnerKind === 'event' ? null : primary.maxTopicLag,
    admissionState: admission.admissionState,
    sourceDriftState: admission.sourceDriftState,
    incidentState: admission.incidentState,
    rejectBurstCount: admission.rejectBurstCount,
    lastContractRejectAt: lastReject?.at ?? null,
    quarantineSince: quarantine?.since ?? null,
    runnerCount: rows.filter((row) => within(row.heartbeatAt) || within(row.lastProcessedAt) || within(row.updatedAt)).length,
  };
  if (!detail) return health;
  return {
    ...health,
    statusReason,
    lastErrorMessage: shown.lastErrorMessage,
    lagErrorMessage: primary.lagErrorMessage,
    lagTopics: primary.runnerKind === 'event' ? null : primary.lagTopics,
    lastContractRejectReason: lastReject?.reason ?? null,
    lastContractRejectTopic: lastReject?.topic ?? null,
    lastContractRejectEntity: lastReject?.entity ?? null,
    lastContractRejectClubId: lastReject?.clubId ?? null,
    sourceDriftDetail: admission.sourceDriftDetail,
    quarantineTopic: quarantine?.topic ?? null,
    quarantineClubId: quarantine?.clubId ?? null,
    quarantineEntity: quarantine?.entity ?? null,
    quarantineDetail: quarantine?.detail ?? null,
    quarantineReason: quarantine?.reason ?? null,
    recentRejects: recent,
  };
}

/** The fields only platform_admin and ops_admin see. */
export const DETAIL_FIELDS = [
  'statusReason',
  'lastErrorMessage',
  'lagErrorMessage',
  'lagTopics',
  'lastContractRejectReason',
  'lastContractRejectTopic',
  'lastContractRejectEntity',
  'lastContractRejectClubId',
  'sourceDriftDetail',
  'quarantineTopic',
  'quarantineClubId',
  'quarantineEntity',
  'quarantineDetail',
  'quarantineReason',
  'recentRejects',
] as const satisfies readonly (keyof IngestHealth)[];

/** States, timestamps and counts only: what anonymous callers get. */
export function publicIngestHealth(health: IngestHealth): IngestHealth {
  const view: IngestHealth = { ...health };
  for (const field of DETAIL_FIELDS) delete view[field];
  return view;
}
