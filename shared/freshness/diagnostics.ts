import * as v from 'valibot';
import { readRecordedConsents, type RecordedConsent } from '../boxConnector/consentRepository';
import type { Queryable } from '../db/client';
import { evaluateClubs, type ClubFreshness } from './clubFreshness';
import { FRESHNESS_STATUSES, overallFreshness, type FreshnessStatus } from './evaluation';
import { readClubSignals } from './freshnessRepository';
import { HINT_CODES } from './hints';

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

export const DataFreshnessBlockSchema = v.object({
  status: v.picklist(FRESHNESS_STATUSES),
  checked: v.number(),
  fresh: v.number(),
  stale: v.number(),
  unknown: v.number(),
  checkedAt: v.string(),
  clubs: v.array(DataFreshnessEntrySchema),
  total: v.number(),
  limit: v.number(),
  offset: v.number(),
  nextOffset: v.nullable(v.number()),
});
export type DataFreshnessBlock = v.InferOutput<typeof DataFreshnessBlockSchema>;

export interface DataFreshnessQuery {
  status?: FreshnessStatus;
  limit: number;
  offset: number;
}

// Worst first, so the clubs that need attention lead the first page.
const SEVERITY: Record<FreshnessStatus, number> = { error: 0, stale: 1, unknown: 2, ok: 3 };

export function toEntry(club: ClubFreshness): DataFreshnessEntry {
  const { signals, verdict } = club;
  return {
    clubId: signals.clubId,
    vereinsId: signals.vereinsId,
    name: signals.name,
    status: verdict.status,
    ...(verdict.status === 'error' ? { statusReason: verdict.reason } : {}),
    lastArrivalAt: signals.lastArrivalAt?.toISOString() ?? null,
    lastStarterlistSeenAt: signals.lastStarterlistSeenAt?.toISOString() ?? null,
    edgeTokenLastUsedAt: signals.edgeTokenLastUsedAt?.toISOString() ?? null,
    planSource: club.planSource,
    evening: { start: verdict.evening.start.toISOString(), end: verdict.evening.end.toISOString() },
    since: signals.recordedStatus === verdict.status ? (signals.recordedSince?.toISOString() ?? null) : null,
    hint: club.hint,
    consent: UNKNOWN_CONSENT,
  };
}

const UNKNOWN_CONSENT: DataFreshnessEntry['consent'] = { state: 'unknown', since: null, reportedAt: null };

/** The entry with the club's recorded consent; a club without one stays `unknown`. */
function withConsent(entry: DataFreshnessEntry, consent: RecordedConsent | undefined): DataFreshnessEntry {
  if (!consent) return entry;
  return {
    ...entry,
    consent: { state: consent.state, since: consent.changedAt?.toISOString() ?? null, reportedAt: consent.receivedAt.toISOString() },
  };
}

/**
 * The dataFreshness block of the diagnostics summary: the overall figures of the health endpoint
 * plus one entry per club, worst status first, then by name; paginated, optionally one status only.
 */
export async function dataFreshnessBlock(sql: Queryable, query: DataFreshnessQuery, now: Date): Promise<DataFreshnessBlock> {
  const clubs = evaluateClubs(await readClubSignals(sql), now);
  const overview = overallFreshness(
    clubs.map((club) => club.verdict.status),
    now,
  );
  const entries = clubs
    .map(toEntry)
    .filter((entry) => !query.status || entry.status === query.status)
    .sort((a, b) => SEVERITY[a.status] - SEVERITY[b.status] || a.name.localeCompare(b.name) || a.clubId.localeCompare(b.clubId));
  const paged = entries.slice(query.offset, query.offset + query.limit);
  // Consent only for the page: one query whatever the number of clubs.
  const consents = await readRecordedConsents(
    sql,
    paged.map((entry) => entry.clubId),
  );
  const page = paged.map((entry) => withConsent(entry, consents.get(entry.clubId)));
  const next = query.offset + page.length;
  return {
    ...overview,
    clubs: page,
    total: entries.length,
    limit: query.limit,
    offset: query.offset,
    nextOffset: next < entries.length ? next : null,
  };
}
