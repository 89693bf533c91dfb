import type { RejectReason } from './contract';

/**
 * Admission and drift as a pure state machine over (previous state, observations, clock); the
 * rules table is in docs/ingest-contract.md beside the spec's. Timestamps are ISO strings so the
 * state round-trips through the status record's jsonb column unchanged.
 */

export type AdmissionStateName = 'none' | 'rejecting' | 'quarantined';
export type SourceDriftStateName = 'none' | 'suspected' | 'recovered';
export type IncidentStateName = 'none' | 'recovered';

/** A contract reject's reason, or apply_failed for an event the database refused (a dead letter). */
export type AdmissionReason = RejectReason | 'apply_failed';

export interface RejectRecord {
  at: string;
  reason: AdmissionReason;
  topic: string | null;
  clubId: string | null;
  entity: string | null;
  detail: string;
}

export interface QuarantineContext {
  since: string;
  path: string;
  topic: string | null;
  clubId: string | null;
  entity: string | null;
  reason: AdmissionReason;
  detail: string;
}

export interface AdmissionState {
  admissionState: AdmissionStateName;
  incidentState: IncidentStateName;
  incidentRecoveredAt: string | null;
  sourceDriftState: SourceDriftStateName;
  sourceDriftDetail: string | null;
  driftPath: string | null;
  lastDriftSignalAt: string | null;
  rejectBurstCount: number;
  /** Rejects inside the window, oldest first: what "fresh" and "several times in short time" count. */
  recentRejects: { at: string; path: string }[];
  lastContractReject: RejectRecord | null;
  quarantine: QuarantineContext | null;
}

export interface AdmissionThresholds {
  /** Rejects within the window (any path) that make admission `rejecting`. */
  rejectingThreshold: number;
  /** Rejects of one path within the window that quarantine it. */
  quarantineThreshold: number;
  windowSeconds: number;
  /** Without a drift signal for this long, sourceDriftState returns to `none`. */
  driftQuietSeconds: number;
}

/** What a batch showed, in arrival order. Accepted entries carry only paths with matching origin. */
export type Observation = { kind: 'reject'; path: string; reject: Omit<RejectRecord, 'at'> } | { kind: 'accepted'; path: string };

/** Rejects that mean the producer's idea of its origin drifted, not just one bad body. */
const DRIFT_REASONS: ReadonlySet<AdmissionReason> = new Set<AdmissionReason>(['origin_mismatch', 'club_scope_mismatch']);

/**
 * Rejects that count toward `rejecting` like any other but never quarantine their path: a club
 * without consent is expected behaviour the club decided, not a faulty producer to isolate.
 */
const NEVER_QUARANTINE: ReadonlySet<AdmissionReason> = new Set<AdmissionReason>(['consent_not_granted']);

/**
 * Bounds the state's size whatever arrives: at most this many recent rejects, each path at most
 * TEXT_CAPS.path characters (the contract cuts them), so the document stays near 100 kB in the
 * worst case. The thresholds' settings stop at this number.
 */
export const MAX_RECENT_REJECTS = 500;

export const INITIAL_ADMISSION: AdmissionState = {
  admissionState: 'none',
  incidentState: 'none',
  incidentRecoveredAt: null,
  sourceDriftState: 'none',
  sourceDriftDetail: null,
  driftPath: null,
  lastDriftSignalAt: null,
  rejectBurstCount: 0,
  recentRejects: [],
  lastContractReject: null,
  quarantine: null,
};

export function advanceAdmission(
  previous: AdmissionState,
  observations: readonly Observation[],
  now: Date,
  thresholds: AdmissionThresholds,
): AdmissionState {
  const at = now.toISOString();
  const windowStart = now.getTime() - thresholds.windowSeconds * 1000;
  const state: AdmissionState = {
    ...previous,
    recentRejects: previous.recentRejects.filter((entry) => Date.parse(entry.at) > windowStart),
  };

  for (const observation of observations) {
    if (observation.kind === 'reject') admitReject(state, observation, at, thresholds);
    else admitAccepted(state, observation.path, at, thresholds);
  }

  // Rejects that are no longer fresh end `rejecting`; a quarantine needs the path accepted again.
  if (state.admissionState === 'rejecting' && state.recentRejects.length === 0) state.admissionState = 'none';
  const lastSignal = state.lastDriftSignalAt ? Date.parse(state.lastDriftSignalAt) : null;
  if (state.sourceDriftState !== 'none' && lastSignal !== null && now.getTime() - lastSignal >= thresholds.driftQuietSeconds * 1000) {
    state.sourceDriftState = 'none';
    state.sourceDriftDetail = null;
    state.driftPath = null;
  }
  state.rejectBurstCount = state.recentRejects.length;
  return state;
}

function admitReject(
  state: AdmissionState,
  observation: Extract<Observation, { kind: 'reject' }>,
  at: string,
  thresholds: AdmissionThresholds,
): void {
  const { path, reject } = observation;
  state.recentRejects = [...state.recentRejects, { at, path }].slice(-MAX_RECENT_REJECTS);
  state.lastContractReject = { at, ...reject };
  if (DRIFT_REASONS.has(reject.reason)) {
    state.sourceDriftState = 'suspected';
    state.sourceDriftDetail = `${reject.reason} on ${reject.topic ?? 'no topic'}: ${reject.detail}`;
    state.driftPath = path;
    state.lastDriftSignalAt = at;
  }
  if (state.admissionState === 'none' && state.recentRejects.length >= thresholds.rejectingThreshold) {
    state.admissionState = 'rejecting';
    state.incidentState = 'none';
    state.incidentRecoveredAt = null;
  }
  const onPath = state.recentRejects.filter((entry) => entry.path === path).length;
  if (state.admissionState === 'rejecting' && onPath >= thresholds.quarantineThreshold && !NEVER_QUARANTINE.has(reject.reason)) {
    state.admissionState = 'quarantined';
    state.quarantine = {
      since: at,
      path,
      topic: reject.topic,
      clubId: reject.clubId,
      entity: reject.entity,
      reason: reject.reason,
      detail: `${onPath} rejects on this path within ${thresholds.windowSeconds} s; last: ${reject.detail}`,
    };
  }
}

function admitAccepted(state: AdmissionState, path: string, at: string, thresholds: AdmissionThresholds): void {
  const rejectedHere = state.recentRejects.some((entry) => entry.path === path);
  if (state.admissionState === 'quarantined' && state.quarantine?.path === path) {
    recover(state, path, at);
  } else if (state.admissionState === 'rejecting' && rejectedHere) {
    state.recentRejects = state.recentRejects.filter((entry) => entry.path !== path);
    if (state.recentRejects.length < thresholds.rejectingThreshold) recover(state, path, at);
  } else if (rejectedHere) {
    // A single reject that never became `rejecting`: the path delivers again, forget it.
    state.recentRejects = state.recentRejects.filter((entry) => entry.path !== path);
  }
  if (state.sourceDriftState === 'suspected' && state.driftPath === path) state.sourceDriftState = 'recovered';
}

function recover(state: AdmissionState, path: string, at: string): void {
  state.admissionState = 'none';
  state.incidentState = 'recovered';
  state.incidentRecoveredAt = at;
  state.quarantine = null;
  state.recentRejects = state.recentRejects.filter((entry) => entry.path !== path);
}

/** Whether two states differ in anything worth a write (the clock alone never is). */
export function admissionChanged(before: AdmissionState, after: AdmissionState): boolean {
  return JSON.stringify(before) !== JSON.stringify(after);
}
