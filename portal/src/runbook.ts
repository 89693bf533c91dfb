/**
 * What the ingest block asks of the operator (spec, incident rules 1, 2, 4, 5): each condition
 * that needs attention, the step to take and the runbook section (docs/runbook-ingest.md).
 */
export const ATTENTION_KINDS = ['quarantined', 'rejecting', 'drift', 'stalled', 'down', 'recovered'] as const;
export type AttentionKind = (typeof ATTENTION_KINDS)[number];

export interface Attention {
  kind: AttentionKind;
  /** Section of docs/runbook-ingest.md. */
  section: 'Quarantined' | 'Rejecting' | 'Drift suspected' | 'Stalled' | 'Rollback';
  /** Incident notes worth writing down belong with rejecting and drift (rule 1). */
  severity: 'danger' | 'warning' | 'info';
}

export interface IngestStates {
  status?: unknown;
  admissionState?: unknown;
  sourceDriftState?: unknown;
  catchUpState?: unknown;
  incidentState?: unknown;
}

/** Most urgent first: a quarantine before rejects, rejects before drift, then stalls and outages. */
export function ingestAttention(health: IngestStates): Attention[] {
  const found: Attention[] = [];
  if (health.admissionState === 'quarantined') found.push({ kind: 'quarantined', section: 'Quarantined', severity: 'danger' });
  if (health.admissionState === 'rejecting') found.push({ kind: 'rejecting', section: 'Rejecting', severity: 'danger' });
  if (health.sourceDriftState === 'suspected') found.push({ kind: 'drift', section: 'Drift suspected', severity: 'warning' });
  if (health.catchUpState === 'stalled') found.push({ kind: 'stalled', section: 'Stalled', severity: 'warning' });
  if (health.status === 'down') found.push({ kind: 'down', section: 'Rollback', severity: 'danger' });
  if (found.length === 0 && health.incidentState === 'recovered') found.push({ kind: 'recovered', section: 'Rejecting', severity: 'info' });
  return found;
}

/** The fields that mark a condition, so the table can highlight them. */
export function highlightedFields(health: IngestStates): Set<string> {
  const fields = new Set<string>();
  if (health.admissionState === 'quarantined' || health.admissionState === 'rejecting') {
    for (const field of [
      'admissionState',
      'rejectBurstCount',
      'lastContractRejectReason',
      'lastContractRejectTopic',
      'lastContractRejectEntity',
    ]) {
      fields.add(field);
    }
  }
  if (health.admissionState === 'quarantined') {
    for (const field of [
      'quarantineSince',
      'quarantineTopic',
      'quarantineClubId',
      'quarantineEntity',
      'quarantineDetail',
      'quarantineReason',
    ]) {
      fields.add(field);
    }
  }
  if (health.sourceDriftState === 'suspected') ['sourceDriftState', 'sourceDriftDetail'].forEach((field) => fields.add(field));
  if (health.catchUpState === 'stalled') ['catchUpState', 'lagErrorMessage'].forEach((field) => fields.add(field));
  if (health.status === 'down') ['status', 'statusReason', 'lastErrorMessage', 'workerState'].forEach((field) => fields.add(field));
  return fields;
}

/** The ingest fields in the order the health documentation lists them; unknown extras follow. */
export const INGEST_FIELD_ORDER = [
  'status',
  'statusReason',
  'workerState',
  'runnerKind',
  'runnerCount',
  'lastErrorMessage',
  'heartbeatAt',
  'lastProcessedAt',
  'lastSourceEventAt',
  'catchUpState',
  'lagSampledAt',
  'lagErrorMessage',
  'totalLag',
  'maxTopicLag',
  'lagTopics',
  'admissionState',
  'sourceDriftState',
  'incidentState',
  'rejectBurstCount',
  'lastContractRejectAt',
  'lastContractRejectReason',
  'lastContractRejectTopic',
  'lastContractRejectEntity',
  'lastContractRejectClubId',
  'sourceDriftDetail',
  'quarantineSince',
  'quarantineTopic',
  'quarantineClubId',
  'quarantineEntity',
  'quarantineDetail',
  'quarantineReason',
] as const;
