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

/**
 * The fields to write into the incident note, per open condition: a quarantine's own fields
 * (rule 2: topic, club, entity, reason, and the detail that says what was received), the last
 * reject's while rejecting (rule 1), the drift detail while drift is suspected; in that order.
 */
export function incidentNoteFields(health: IngestStates): string[] {
  const fields: string[] = [];
  if (health.admissionState === 'quarantined') {
    fields.push('quarantineTopic', 'quarantineClubId', 'quarantineEntity', 'quarantineReason', 'quarantineDetail');
  }
  if (health.admissionState === 'rejecting') {
    fields.push('lastContractRejectReason', 'lastContractRejectTopic', 'lastContractRejectEntity', 'lastContractRejectClubId');
  }
  if (health.sourceDriftState === 'suspected') fields.push('sourceDriftDetail');
  return fields;
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

/**
 * The one state the diagnostics page leads with: the most urgent condition that needs a step,
 * `live` when none does, `unknown` when the status record is switched off (nothing is known then).
 */
export const INGEST_STATES = ['live', 'rejecting', 'quarantined', 'drift', 'stalled', 'down', 'unknown'] as const;
export type IngestState = (typeof INGEST_STATES)[number];

export function ingestState(health: IngestStates): IngestState {
  if (health.status === 'unknown') return 'unknown';
  const urgent = ingestAttention(health).find((item) => item.kind !== 'recovered');
  return urgent && urgent.kind !== 'recovered' ? urgent.kind : 'live';
}

/** The ingest fields grouped by concern, each group in the order the health documentation lists them. */
export const INGEST_FIELD_GROUPS = [
  {
    id: 'runner',
    fields: [
      'status',
      'statusReason',
      'workerState',
      'runnerKind',
      'runnerCount',
      'lastErrorMessage',
      'heartbeatAt',
      'lastProcessedAt',
      'lastSourceEventAt',
    ],
  },
  { id: 'lag', fields: ['catchUpState', 'lagSampledAt', 'lagErrorMessage', 'totalLag', 'maxTopicLag', 'lagTopics'] },
  { id: 'admission', fields: ['admissionState', 'sourceDriftState', 'sourceDriftDetail', 'incidentState', 'rejectBurstCount'] },
  {
    id: 'quarantine',
    fields: ['quarantineSince', 'quarantineTopic', 'quarantineClubId', 'quarantineEntity', 'quarantineDetail', 'quarantineReason'],
  },
  {
    id: 'reject',
    fields: [
      'lastContractRejectAt',
      'lastContractRejectReason',
      'lastContractRejectTopic',
      'lastContractRejectEntity',
      'lastContractRejectClubId',
    ],
  },
] as const;
export type IngestFieldGroup = (typeof INGEST_FIELD_GROUPS)[number]['id'] | 'other';

/** Record lists shown as their own sections, never as fields. */
const RECORD_LISTS = ['recentRejects', 'backfills'];

/**
 * The health's fields per group (only those present, in group order); fields the page does not
 * know yet land in `other`, so a new field is shown rather than lost.
 */
export function groupIngestFields(health: Record<string, unknown>): { id: IngestFieldGroup; fields: string[] }[] {
  const known = new Set<string>(INGEST_FIELD_GROUPS.flatMap((group) => group.fields));
  const groups: { id: IngestFieldGroup; fields: string[] }[] = INGEST_FIELD_GROUPS.map((group) => ({
    id: group.id,
    fields: group.fields.filter((field) => field in health),
  }));
  groups.push({ id: 'other', fields: Object.keys(health).filter((field) => !known.has(field) && !RECORD_LISTS.includes(field)) });
  return groups.filter((group) => group.fields.length > 0);
}
