import type { Queryable } from '../db/client';
import { INITIAL_ADMISSION, type AdmissionState } from './admission';
import { listRecentBackfills, type BackfillState, type BackfillStatusRow } from './backfillStatusRepository';
import { listAdmission, listRecentRejects, listRunnerStatus, type RejectLogEntry, type RunnerStatusRow } from './statusRepository';

/** A heartbeat older than this makes ingest (and with it the service) down. */
export const HEARTBEAT_STALE_AFTER_MS = 3 * 60_000;

/** Finished backfills stay listed this long; running ones always are. */
export const BACKFILL_LISTED_FOR_MS = 24 * 3600_000;
export const BACKFILL_LIST_MAX = 10;
/** A running backfill whose row was not updated for this many progress intervals (and at least 30 s) is stale. */
export const BACKFILL_STALE_INTERVALS = 5;
export const BACKFILL_STALE_MIN_MS = 30_000;

/** A backfill or replay as health lists it (detail only). */
export interface BackfillHealth {
  consumerGroup: string;
  kind: 'records' | 'shooters';
  /** The clubs of its scope (of the named records, or whose shooters it replays). */
  clubIds: string[];
  fresh: boolean;
  state: BackfillState;
  /** Running, but no progress written for 5 progress intervals (at least 30 s): the process likely died. */
  stale: boolean;
  lagLeft: number | null;
  eventsRead: number;
  eventsApplied: number;
  eventsSkipped: number;
  startedAt: string;
  updatedAt: string;
  finishedAt: string | null;
  errorMessage: string | null;
}

/**
 * The runner kinds this release reads from the status record. The rollout gate asks for `event`
 * before SVC_INGEST_STATUS_ENABLED goes on, while the switch is still off and `runnerKind` is null:
 * so it is reported whatever the switch says (spec, Versioning: a release that understands
 * runnerKind event first, then the switch).
 */
export const RUNNER_KINDS_UNDERSTOOD = ['event', 'worker'] as const;

/** The ingest health block (spec "Ingest health"): what GET /healthz/ingest answers and admin diagnostics shows. */
export interface IngestHealth {
  status: 'up' | 'down' | 'unknown';
  workerState: string | null;
  runnerKind: 'event' | 'worker' | null;
  /** What this release understands, independent of the switch and of any runner (see RUNNER_KINDS_UNDERSTOOD). */
  runnerKindsUnderstood: ('event' | 'worker')[];
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
  /** Backfills running, or finished within 24 h; newest update first, at most 10. */
  backfills?: BackfillHealth[];
  /** Why status is down, in words (detail only). */
  statusReason?: string | null;
}

export interface ReadIngestHealthOptions {
  /** SVC_INGEST_STATUS_ENABLED: while false the answer is `unknown` and the database is not read. */
  statusEnabled: boolean;
  /** Only the status rows of the runner that ingests here (healthSource.ts); absent: every row. */
  runnerKind?: RunnerStatusRow['runnerKind'];
  /** Include error texts, reject details, club ids and quarantine context (platform_admin, ops_admin). */
  detail: boolean;
  now?: Date;
  recentRejectLimit?: number;
}

const iso = (date: Date | null | undefined) => (date ? date.toISOString() : null);

export function backfillHealth(row: BackfillStatusRow, now: Date): BackfillHealth {
  const staleAfter = Math.max(BACKFILL_STALE_MIN_MS, BACKFILL_STALE_INTERVALS * row.progressIntervalMs);
  const clubIds = 'clubIds' in row.scope ? row.scope.clubIds : [...new Set(row.scope.records.map((record) => record.clubId))];
  return {
    consumerGroup: row.consumerGroup,
    kind: row.kind,
    clubIds,
    fresh: row.fresh,
    state: row.state,
    stale: row.state === 'running' && now.getTime() - row.updatedAt.getTime() > staleAfter,
    lagLeft: row.lagLeft,
    eventsRead: row.eventsRead,
    eventsApplied: row.eventsApplied,
    eventsSkipped: row.eventsSkipped,
    startedAt: row.startedAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    finishedAt: iso(row.finishedAt),
    errorMessage: row.errorMessage,
  };
}

const UNKNOWN: Omit<IngestHealth, 'runnerKindsUnderstood'> = {
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

/** What the block says while SVC_INGEST_STATUS_ENABLED is off: nothing read, only what the release understands. */
export function unknownIngestHealth(): IngestHealth {
  return { ...UNKNOWN, runnerKindsUnderstood: [...RUNNER_KINDS_UNDERSTOOD] };
}

/** Reads the ingest block: one function for /healthz, /healthz/ingest and admin diagnostics. */
export async function readIngestHealth(sql: Queryable, options: ReadIngestHealthOptions): Promise<IngestHealth> {
  if (!options.statusEnabled) return unknownIngestHealth();
  const rows = (await listRunnerStatus(sql)).filter((row) => !options.runnerKind || row.runnerKind === options.runnerKind);
  const admission = await listAdmission(sql);
  const recent = options.detail ? await listRecentRejects(sql, options.recentRejectLimit ?? 20) : [];
  const now = options.now ?? new Date();
  const backfills = options.detail ? await listRecentBackfills(sql, now, BACKFILL_LISTED_FOR_MS, BACKFILL_LIST_MAX) : [];
  return summariseIngestHealth(rows, admission, recent, options.detail, now, backfills);
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
  backfillRows: readonly BackfillStatusRow[] = [],
): IngestHealth {
  const backfills = backfillRows.map((row) => backfillHealth(row, now));
  const byHeartbeat = [...rows].sort((a, b) => (b.heartbeatAt?.getTime() ?? 0) - (a.heartbeatAt?.getTime() ?? 0));
  const primary = byHeartbeat[0];
  if (!primary) {
    const none: IngestHealth = { ...unknownIngestHealth(), status: 'down' };
    return detail ? { ...none, statusReason: 'no runner has written a status record yet', backfills } : none;
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
    runnerKindsUnderstood: [...RUNNER_KINDS_UNDERSTOOD],
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
    backfills,
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
  'backfills',
] as const satisfies readonly (keyof IngestHealth)[];

/** States, timestamps and counts only: what anonymous callers get. */
export function publicIngestHealth(health: IngestHealth): IngestHealth {
  const view: IngestHealth = { ...health };
  for (const field of DETAIL_FIELDS) delete view[field];
  return view;
}
