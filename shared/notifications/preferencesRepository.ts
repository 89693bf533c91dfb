import type { Queryable } from '../db/client';
import { fromStored, type NotificationPreferences } from './preferences';

/** The user's stored block laid over the defaults; defaults when nothing is stored. */
export async function loadPreferences(sql: Queryable, userId: string): Promise<NotificationPreferences> {
  const [row] = await sql<{ notifications: unknown }[]>`
    select notifications from user_settings where user_id = ${userId}`;
  return fromStored(row?.notifications);
}

/**
 * As loadPreferences, holding the row lock until the transaction ends, so concurrent partial
 * updates of one user apply one after the other instead of losing each other's keys.
 */
export async function loadPreferencesForUpdate(sql: Queryable, userId: string): Promise<NotificationPreferences> {
  await sql`
    insert into user_settings (user_id, notifications) values (${userId}, ${sql.json({})})
    on conflict (user_id) do nothing`;
  const [row] = await sql<{ notifications: unknown }[]>`
    select notifications from user_settings where user_id = ${userId} for update`;
  return fromStored(row?.notifications);
}

/** Stores the whole block. */
export async function savePreferences(sql: Queryable, userId: string, preferences: NotificationPreferences): Promise<void> {
  await sql`
    insert into user_settings (user_id, notifications) values (${userId}, ${sql.json(preferences)})
    on conflict (user_id) do update set notifications = excluded.notifications, updated_at = now()`;
}
