import type { Queryable } from '../db/client';
import { appLogger } from '../log/appLogger';
import { defaultPreferences, readStored, type NotificationPreferences } from './preferences';
import { DEFAULT_TIME_ZONE } from '../time/timeZone';

/** What the notification rules need from user_settings. */
export interface StoredSettings {
  preferences: NotificationPreferences;
  /** IANA name; DEFAULT_TIME_ZONE for a user without a row. */
  timeZone: string;
  /** Whether the user has a confirmed contact email; the email defaults depend on it. */
  emailConfirmed: boolean;
}

type SettingsRow = { notifications: unknown; timeZone: string | null; emailConfirmed: boolean };

function fromRow(row: SettingsRow | undefined): StoredSettings {
  const emailConfirmed = row?.emailConfirmed ?? false;
  const { preferences, drifted } = readStored(row?.notifications, defaultPreferences({ emailConfirmed }));
  // Section names only: neither the user nor the stored values go into the log.
  if (drifted.length > 0) appLogger({ area: 'notifications' }).warn('notifications.preferences_drift', { sections: drifted });
  return { preferences, timeZone: row?.timeZone ?? DEFAULT_TIME_ZONE, emailConfirmed };
}

const CONFIRMED = (sql: Queryable, userId: string) =>
  sql`exists (select 1 from user_contact c where c.user_id = ${userId} and c.email is not null) as "emailConfirmed"`;

/** The user's stored block laid over the defaults, and their time zone; defaults when nothing is stored. */
export async function loadSettings(sql: Queryable, userId: string): Promise<StoredSettings> {
  const [row]: [SettingsRow?] = await sql`
    select s.notifications, s.time_zone as "timeZone", ${CONFIRMED(sql, userId)}
    from (select 1) as one left join user_settings s on s.user_id = ${userId}`;
  return fromRow(row);
}

/** loadSettings for many users in one query (the delivery worker's batch); every given user is in the map. */
export async function loadSettingsOf(sql: Queryable, userIds: readonly string[]): Promise<Map<string, StoredSettings>> {
  const rows: (SettingsRow & { userId: string })[] = await sql`
    select u.user_id as "userId", s.notifications, s.time_zone as "timeZone", c.email is not null as "emailConfirmed"
    from unnest(${[...userIds]}::text[]) as u (user_id)
    left join user_settings s on s.user_id = u.user_id
    left join user_contact c on c.user_id = u.user_id`;
  const byUser = new Map(rows.map((row) => [row.userId, row]));
  return new Map(userIds.map((userId) => [userId, fromRow(byUser.get(userId))]));
}

/**
 * As loadSettings, holding the row lock until the transaction ends, so concurrent partial
 * updates of one user apply one after the other instead of losing each other's keys.
 */
export async function loadSettingsForUpdate(sql: Queryable, userId: string): Promise<StoredSettings> {
  await sql`
    insert into user_settings (user_id, notifications) values (${userId}, ${sql.json({})})
    on conflict (user_id) do nothing`;
  const [row]: [SettingsRow?] = await sql`
    select notifications, time_zone as "timeZone", ${CONFIRMED(sql, userId)} from user_settings where user_id = ${userId} for update`;
  return fromRow(row);
}

/** Stores the whole block, and the time zone when given (else the stored one, or the column default, stays). */
export async function savePreferences(
  sql: Queryable,
  userId: string,
  preferences: NotificationPreferences,
  timeZone?: string,
): Promise<void> {
  if (timeZone === undefined) {
    await sql`
      insert into user_settings (user_id, notifications) values (${userId}, ${sql.json(preferences)})
      on conflict (user_id) do update set notifications = excluded.notifications, updated_at = now()`;
    return;
  }
  await sql`
    insert into user_settings (user_id, notifications, time_zone) values (${userId}, ${sql.json(preferences)}, ${timeZone})
    on conflict (user_id) do update
    set notifications = excluded.notifications, time_zone = excluded.time_zone, updated_at = now()`;
}
