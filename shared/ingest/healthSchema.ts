import * as v from 'valibot';

/** The ingest block as GET /healthz/ingest answers it (for the OpenAPI document). */
const timestamp = v.nullable(v.pipe(v.string(), v.isoTimestamp()));
const text = v.nullable(v.string());

/** One contract reject as the ingest health and the club's ingest view list it. */
export const RejectEntrySchema = v.object({
  rejectedAt: v.pipe(v.string(), v.isoTimestamp()),
  topic: text,
  clubId: text,
  entity: text,
  reason: v.string(),
  detail: v.string(),
  partitionId: text,
  sequenceNumber: v.nullable(v.number()),
});

export const IngestHealthSchema = v.object({
  status: v.picklist(['up', 'down', 'unknown']),
  workerState: text,
  runnerKind: v.nullable(v.picklist(['event', 'worker'])),
  // What the release understands, whatever SVC_INGEST_STATUS_ENABLED says (the rollout gate reads it).
  runnerKindsUnderstood: v.array(v.picklist(['event', 'worker'])),
  heartbeatAt: timestamp,
  lastProcessedAt: timestamp,
  lastSourceEventAt: timestamp,
  catchUpState: v.nullable(v.picklist(['live', 'catching_up', 'stalled'])),
  lagSampledAt: timestamp,
  totalLag: v.nullable(v.number()),
  maxTopicLag: v.nullable(v.number()),
  admissionState: v.nullable(v.picklist(['none', 'rejecting', 'quarantined'])),
  sourceDriftState: v.nullable(v.picklist(['none', 'suspected', 'recovered'])),
  incidentState: v.nullable(v.picklist(['none', 'recovered'])),
  rejectBurstCount: v.nullable(v.number()),
  lastContractRejectAt: timestamp,
  quarantineSince: timestamp,
  runnerCount: v.number(),
  // Only for platform_admin and ops_admin (capability ingest.details).
  statusReason: v.optional(text),
  lastErrorMessage: v.optional(text),
  lagErrorMessage: v.optional(text),
  lagTopics: v.optional(v.unknown()),
  lastContractRejectReason: v.optional(text),
  lastContractRejectTopic: v.optional(text),
  lastContractRejectEntity: v.optional(text),
  lastContractRejectClubId: v.optional(text),
  sourceDriftDetail: v.optional(text),
  quarantineTopic: v.optional(text),
  quarantineClubId: v.optional(text),
  quarantineEntity: v.optional(text),
  quarantineDetail: v.optional(text),
  quarantineReason: v.optional(text),
  recentRejects: v.optional(v.array(RejectEntrySchema)),
  // Backfills running, or finished within 24 h (newest update first, at most 10).
  backfills: v.optional(
    v.array(
      v.object({
        consumerGroup: v.string(),
        kind: v.picklist(['records', 'shooters']),
        clubIds: v.array(v.string()),
        fresh: v.boolean(),
        state: v.picklist(['running', 'done', 'failed', 'refused']),
        // Running, but no progress written for 5 progress intervals (at least 30 s).
        stale: v.boolean(),
        lagLeft: v.nullable(v.number()),
        eventsRead: v.number(),
        eventsApplied: v.number(),
        eventsSkipped: v.number(),
        startedAt: v.pipe(v.string(), v.isoTimestamp()),
        updatedAt: v.pipe(v.string(), v.isoTimestamp()),
        finishedAt: timestamp,
        errorMessage: text,
      }),
    ),
  ),
});
