/** The API's answers as the portal reads them (the generated schemas are in /api/openapi.json). */
import type { DeliveryQueueBlock } from '../../shared/notifications/delivery/deliveryQueueSchema';
import type { BoxPushBlock } from '../../shared/portal/boxPushSchema';
import type { NamedClubs } from '../../shared/portal/namedClubsSchema';

export type { ClubOverview } from '../../shared/portal/clubOverviewSchema';
export type { BoxPushBlock, DeliveryQueueBlock };

export interface Session {
  sub: string;
  roles: string[];
  capabilities: string[];
}

export interface Freshness {
  asOf: string;
  cached: boolean;
  stale: boolean;
}

export interface Delta {
  absolute: number;
  percent: number | null;
}

export interface CostSummary extends Freshness {
  currency: string;
  month: string;
  monthToDate: number;
  forecast: { endOfMonth: number; method: 'provider' | 'run_rate' };
  lastMonthToDate: number;
  samePeriod: { from: string; to: string };
  deltaToLastMonthToDate: Delta;
  lastMonth: number;
  deltaToLastMonth: Delta;
  resourceGroups: { resourceGroup: string; monthToDate: number; lastMonthToDate: number; lastMonth: number; delta: Delta }[];
  warnings: string[];
}

export interface CostBreakdown extends Freshness {
  currency: string;
  month: string;
  total: number;
  services: { service: string; cost: number; sharePercent: number }[];
}

export interface CostTimeseries extends Freshness {
  currency: string;
  days: number;
  from: string;
  to: string;
  total: number;
  completeThrough: string;
  points: { date: string; cost: number; complete: boolean }[];
}

export type IngestHealth = Record<string, unknown> & {
  status: 'up' | 'down' | 'unknown';
  admissionState: 'none' | 'rejecting' | 'quarantined' | null;
  sourceDriftState: 'none' | 'suspected' | 'recovered' | null;
  catchUpState: 'live' | 'catching_up' | 'stalled' | null;
  incidentState: 'none' | 'recovered' | null;
  recentRejects?: Record<string, unknown>[];
  backfills?: Record<string, unknown>[];
};

export type FreshnessStatus = 'ok' | 'stale' | 'unknown' | 'error';

export interface ClubFreshness {
  clubId: string;
  vereinsId: string;
  name: string;
  status: FreshnessStatus;
  statusReason?: string;
  lastArrivalAt: string | null;
  lastStarterlistSeenAt: string | null;
  edgeTokenLastUsedAt: string | null;
  planSource: 'stored' | 'assumed';
  evening: { start: string; end: string };
  since: string | null;
  hint: { code: string; message: string } | null;
  /** The data-sharing consent the club's box last reported; unknown when it never reported one. */
  consent: { state: 'GRANTED' | 'NONE' | 'REVOKED' | 'unknown'; since: string | null; reportedAt: string | null };
}

export interface DiagnosticsSummary {
  generatedAt: string;
  ingest: IngestHealth;
  dataFreshness: {
    status: FreshnessStatus;
    checked: number;
    fresh: number;
    stale: number;
    unknown: number;
    checkedAt: string;
    clubs: ClubFreshness[];
    total: number;
    limit: number;
    offset: number;
    nextOffset: number | null;
  };
  deadLetters: { pending: number; recent: Record<string, unknown>[] };
  delivery: DeliveryQueueBlock;
  boxPushes: BoxPushBlock;
  namedClubs: NamedClubs;
}

export interface CatalogEntry {
  clubId: string | null;
  vereinsId: string | null;
  name: string;
  status: 'active' | 'inactive' | 'imported_only';
  reportingBoxes: number;
  lastSeenAt: string | null;
  edgeTokenLastUsedAt: string | null;
}

export interface CatalogPage {
  items: CatalogEntry[];
  total: number;
  limit: number;
  offset: number;
  nextOffset: number | null;
}

export interface InboxItem {
  id: string;
  title: string;
  body?: string;
  date: string;
  tone: string;
  read: boolean;
}

export interface InboxPage {
  items: InboxItem[];
  unreadCount: number;
  nextCursor: string | null;
}
