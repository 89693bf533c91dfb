import { getSettings } from '../config/settings';
import type { Queryable, Sql } from '../db/client';
import { notify } from '../notifications/notify';

/** An ingest quarantine as the ingest status record holds it (spec: quarantine context). */
export interface QuarantineContext {
  quarantineSince: Date;
  quarantineTopic: string;
  quarantineClubId: string | null;
  quarantineEntity: string | null;
  quarantineReason?: string | null;
  quarantineDetail?: string | null;
}

/** One quarantine is one (since, topic, club, entity): the same context seen again is the same quarantine. */
export function quarantineKey(quarantine: QuarantineContext): string {
  return [
    'ingest_quarantine',
    quarantine.quarantineSince.toISOString(),
    quarantine.quarantineTopic,
    quarantine.quarantineClubId ?? '',
    quarantine.quarantineEntity ?? '',
  ].join('|');
}

async function claimNotice(sql: Queryable, key: string): Promise<boolean> {
  const rows = await sql`insert into ops_notice (notice_key) values (${key}) on conflict (notice_key) do nothing returning notice_key`;
  return rows.length === 1;
}

async function releaseNotice(sql: Queryable, key: string): Promise<void> {
  await sql`delete from ops_notice where notice_key = ${key}`;
}

/**
 * Tells the platform admins (`recipients`, user ids: platform roles live in the identity
 * provider's tokens, so the service cannot list who holds them; see PLATFORM_ADMIN_USER_IDS)
 * that ingest quarantined a path, once per quarantine however often the ingest status reports it.
 * Returns how many admins were notified (0 when this quarantine was announced before). Meant to
 * be called by the ingest path whenever it enters or reports the quarantined state.
 */
export async function notifyQuarantine(
  sql: Sql,
  quarantine: QuarantineContext,
  recipients: readonly string[],
  now: Date = new Date(),
): Promise<number> {
  if (recipients.length === 0) return 0;
  const key = quarantineKey(quarantine);
  if (!(await claimNotice(sql, key))) return 0;
  const scope = [
    `topic ${quarantine.quarantineTopic}`,
    quarantine.quarantineClubId ? `club ${quarantine.quarantineClubId}` : undefined,
    quarantine.quarantineEntity ? `entity ${quarantine.quarantineEntity}` : undefined,
  ]
    .filter(Boolean)
    .join(', ');
  const reason = quarantine.quarantineReason ?? quarantine.quarantineDetail;
  const body = [
    `Ingest quarantined ${scope} since ${quarantine.quarantineSince.toISOString()}.`,
    reason ? `Reason: ${reason}.` : undefined,
    'Correct the producer path before any replay (incident rule 2).',
  ]
    .filter(Boolean)
    .join(' ');
  try {
    for (const userId of new Set(recipients)) {
      await sql.begin((tx) =>
        notify(tx, { userId, title: 'Ingest quarantine', body, tone: 'error', kind: 'report', source: 'ingest' }, now),
      );
    }
  } catch (error) {
    // Hand the claim back so the next report of the same quarantine tries again.
    await releaseNotice(sql, key);
    throw error;
  }
  return new Set(recipients).size;
}

/** notifyQuarantine to the platform admins listed in PLATFORM_ADMIN_USER_IDS: the call the ingest path makes. */
export function notifyQuarantineToPlatformAdmins(sql: Sql, quarantine: QuarantineContext, now: Date = new Date()): Promise<number> {
  return notifyQuarantine(sql, quarantine, getSettings().PLATFORM_ADMIN_USER_IDS, now);
}
