import * as v from 'valibot';

/** The tones an inbox entry can carry. */
export const TONES = ['info', 'success', 'warning', 'error'] as const;
export type Tone = (typeof TONES)[number];

/** The email categories of the preferences; an inbox entry may belong to one of them. */
export const CATEGORIES = ['training', 'competition', 'board', 'youth', 'club'] as const;
export type Category = (typeof CATEGORIES)[number];

/** NotificationRecord as clients see it; `body` is left out when the entry has none. */
export const NotificationRecordSchema = v.object({
  id: v.string(),
  title: v.string(),
  body: v.optional(v.string()),
  date: v.pipe(v.string(), v.isoTimestamp()),
  tone: v.picklist(TONES),
  read: v.boolean(),
});
export type NotificationRecord = v.InferOutput<typeof NotificationRecordSchema>;

/** The list envelope of GET /api/notifications. */
export const InboxPageSchema = v.object({
  items: v.array(NotificationRecordSchema),
  unreadCount: v.number(),
  nextCursor: v.nullable(v.string()),
});
export type InboxPage = v.InferOutput<typeof InboxPageSchema>;
