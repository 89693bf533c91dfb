import { readRecordedConsents, type RecordedConsent } from '../boxConnector/consentRepository';
import type { Queryable } from '../db/client';
import { evaluateClubs, type ClubFreshness } from './clubFreshness';
import type { DataFreshnessBlock, DataFreshnessEntry } from './dataFreshnessSchema';
import { overallFreshness, type FreshnessStatus } from './evaluation';
import { readClubSignals } from './freshnessRepository';

export {
  DataFreshnessBlockSchema,
  DataFreshnessEntrySchema,
  type DataFreshnessBlock,
  type DataFreshnessEntry,
} from './dataFreshnessSchema';

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
