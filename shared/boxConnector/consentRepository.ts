import type { Queryable } from '../db/client';
import type { ConsentState } from './consentGate';
import type { BoxConsentReport } from './consentReport';

/** How many audit rows a club keeps at most, and for how many days: trimmed on every change. */
export const CONSENT_AUDIT_RETENTION = { keep: 100, maxAgeDays: 365 } as const;

export interface ConsentRetention {
  keep: number;
  maxAgeDays: number;
}

export interface ReportedConsent {
  /** The service club the box's edge token is bound to: a box reports only for its own club. */
  clubId: string;
  tokenId: string;
  report: BoxConsentReport;
}

export interface ConsentRecordOutcome {
  changed: boolean;
  previousState: ConsentState | null;
  state: ConsentState;
}

/**
 * Stores the consent a box reported, in the caller's transaction, only when it differs from the
 * stored one (state or changedAt): a push that repeats it writes nothing. A change also writes an
 * audit row and trims the club's audit to `retention`. A GRANTED report older (by its changedAt)
 * than the stored state is a late retry and is ignored: it must not reopen what a newer report
 * closed. Any report that refuses (NONE, REVOKED) applies whatever its time, so a replaced box
 * with a wrong clock can always close the gate.
 */
export async function recordReportedConsent(
  sql: Queryable,
  { clubId, tokenId, report }: ReportedConsent,
  retention: ConsentRetention = CONSENT_AUDIT_RETENTION,
): Promise<ConsentRecordOutcome> {
  const [row]: [{ previousState: ConsentState | null; changed: boolean }?] = await sql`
    with previous as (select state from club_consent where club_id = ${clubId} for update),
         upserted as (
           insert into club_consent as t (club_id, state, changed_at, received_at, reported_by_token_id)
           values (${clubId}, ${report.state}, ${report.changedAt}::timestamptz, now(), ${tokenId})
           on conflict (club_id) do update set
             state = excluded.state, changed_at = excluded.changed_at,
             received_at = excluded.received_at, reported_by_token_id = excluded.reported_by_token_id
           where (t.state, t.changed_at) is distinct from (excluded.state, excluded.changed_at)
             and not coalesce(excluded.state = 'GRANTED' and excluded.changed_at < t.changed_at, false)
             and not (excluded.state = 'GRANTED' and excluded.changed_at is null and t.changed_at is not null)
           returning state, changed_at, received_at, reported_by_token_id
         ),
         audited as (
           insert into club_consent_audit (club_id, previous_state, state, changed_at, received_at, reported_by_token_id)
           select ${clubId}, (select state from previous), u.state, u.changed_at, u.received_at, u.reported_by_token_id
           from upserted u
           returning 1
         )
    select (select state from previous) as "previousState", exists (select 1 from audited) as changed`;
  const changed = row?.changed ?? false;
  const previousState = row?.previousState ?? null;
  if (changed) await trimConsentAudit(sql, clubId, retention);
  return { changed, previousState, state: changed ? report.state : (previousState ?? report.state) };
}

async function trimConsentAudit(sql: Queryable, clubId: string, { keep, maxAgeDays }: ConsentRetention): Promise<void> {
  await sql`
    delete from club_consent_audit
    where club_id = ${clubId}
      and (received_at < now() - make_interval(days => ${maxAgeDays})
           or id < (select id from club_consent_audit where club_id = ${clubId} order by id desc offset ${keep - 1} limit 1))`;
}

export interface RecordedConsent {
  clubId: string;
  state: ConsentState;
  /** When the box recorded the state (the box's clock); null for NONE on a new box. */
  changedAt: Date | null;
  receivedAt: Date;
  reportedByTokenId: string;
}

/** The recorded consent of each given service club that has one. */
export async function readRecordedConsents(sql: Queryable, clubIds: readonly string[]): Promise<Map<string, RecordedConsent>> {
  if (!clubIds.length) return new Map();
  const rows = await sql<RecordedConsent[]>`
    select club_id as "clubId", state, changed_at as "changedAt", received_at as "receivedAt", reported_by_token_id as "reportedByTokenId"
    from club_consent where club_id = any(${sql.array([...clubIds])}::text[])`;
  return new Map(rows.map((row) => [row.clubId, row]));
}

export interface ConsentAuditEntry {
  previousState: ConsentState | null;
  state: ConsentState;
  changedAt: Date | null;
  receivedAt: Date;
  reportedByTokenId: string;
}

/** A club's consent changes, newest first. */
export async function readConsentAudit(sql: Queryable, clubId: string, limit = 20): Promise<ConsentAuditEntry[]> {
  return sql<ConsentAuditEntry[]>`
    select previous_state as "previousState", state, changed_at as "changedAt", received_at as "receivedAt",
           reported_by_token_id as "reportedByTokenId"
    from club_consent_audit where club_id = ${clubId} order by id desc limit ${limit}`;
}
