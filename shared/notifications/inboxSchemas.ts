import * as v from 'valibot';
import { TONES } from './record';

/**
 * What GET /api/notifications answers, apart from the request schemas (which need the cursor
 * codec's keys) so a client imports the types without server code.
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
export const InboxPageSchema = v.pipe(
  v.object({
    items: v.array(NotificationRecordSchema),
    unreadCount: v.number(),
    nextCursor: v.nullable(v.string()),
  }),
  v.title('InboxPage'),
);
export type InboxPage = v.InferOutput<typeof InboxPageSchema>;
