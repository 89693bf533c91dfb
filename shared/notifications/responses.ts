import * as v from 'valibot';
import { cursorPageSchema } from '../paging/cursorPage';
import { NotificationPreferencesSchema } from './preferences';
import { TONES } from './record';

/**
 * What the inbox and settings routes answer. Kept apart from the request schemas (schemas.ts),
 * which reach the database's page sizes and Node's crypto: this file imports only valibot and pure
 * rules, so the member app (app/, a browser bundle) imports its types with `import type`.
 */

/** NotificationRecord as clients see it; `body` is left out when the entry has none. */
export const NotificationRecordSchema = v.pipe(
  v.object({
    id: v.string(),
    title: v.string(),
    body: v.optional(v.string()),
    date: v.pipe(v.string(), v.isoTimestamp()),
    tone: v.picklist(TONES),
    read: v.boolean(),
  }),
  v.title('NotificationRecord'),
);
export type NotificationRecord = v.InferOutput<typeof NotificationRecordSchema>;

/** The list envelope of GET /api/notifications. */
export const InboxPageSchema = v.pipe(cursorPageSchema(NotificationRecordSchema, { unreadCount: v.number() }), v.title('InboxPage'));
export type InboxPage = v.InferOutput<typeof InboxPageSchema>;

/** The response of every settings call. */
export const UserSettingsSchema = v.pipe(
  v.object({
    notifications: NotificationPreferencesSchema,
    timeZone: v.string(),
    /** Whether the member has a confirmed contact email: without one no email goes out, whatever the switches say. */
    emailAvailable: v.boolean(),
    emailEnabled: v.boolean(),
    pushEnabled: v.boolean(),
    categories: NotificationPreferencesSchema.entries.email.entries.categories,
    updates: NotificationPreferencesSchema.entries.updates,
  }),
  v.title('UserSettings'),
);
export type UserSettings = v.InferOutput<typeof UserSettingsSchema>;
