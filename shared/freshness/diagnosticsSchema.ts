import * as v from 'valibot';
import { FRESHNESS_STATUSES } from './evaluation';
import { HINT_CODES } from './hints';

/** The dataFreshness block of the diagnostics summary, apart from the code that computes it so clients can import its type. */

const iso = v.nullable(v.string());

export const DataFreshnessEntrySchema = v.object({
  clubId: v.string(),
  vereinsId: v.string(),
  name: v.string(),
  status: v.picklist(FRESHNESS_STATUSES),
  /** Why the status is error (only then). */
  statusReason: v.optional(v.literal('arrival_in_future')),
  lastArrivalAt: iso,
  lastStarterlistSeenAt: iso,
  edgeTokenLastUsedAt: iso,
  planSource: v.picklist(['stored', 'assumed']),
  evening: v.object({ start: v.string(), end: v.string() }),
  /** Since when the freshness timer has seen this status; null until it first records it. */
  since: iso,
  hint: v.nullable(v.object({ code: v.picklist(HINT_CODES), message: v.string() })),
  /**
   * The data-sharing consent the club's box last reported: unknown when it never reported one
   * (not refused at ingest); since is when the box recorded the state, reportedAt when the cloud
   * received it. Only GRANTED lets the club's score rows in.
   */
  consent: v.object({
    state: v.picklist(['GRANTED', 'NONE', 'REVOKED', 'unknown']),
    since: iso,
    reportedAt: iso,
  }),
});
export type DataFreshnessEntry = v.InferOutput<typeof DataFreshnessEntrySchema>;

/** The overall status and the counts of one freshness check: GET /healthz/data-freshness, and the head of the block below. */
export const FreshnessCountsSchema = v.object({
  status: v.picklist(FRESHNESS_STATUSES),
  checked: v.number(),
  fresh: v.number(),
  stale: v.number(),
  unknown: v.number(),
  checkedAt: v.string(),
});

export const DataFreshnessBlockSchema = v.object({
  ...FreshnessCountsSchema.entries,
  clubs: v.array(DataFreshnessEntrySchema),
  total: v.number(),
  limit: v.number(),
  offset: v.number(),
  nextOffset: v.nullable(v.number()),
});
export type DataFreshnessBlock = v.InferOutput<typeof DataFreshnessBlockSchema>;
