import * as v from 'valibot';
import { cursorParameter } from '../paging/cursor';
import { pageLimit } from '../paging/limit';
import { inboxCursor } from './cursor';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './inboxService';
import {
  hasLegacyFields,
  legacyFieldEntries,
  NotificationPreferencesPatchSchema,
  NotificationPreferencesSchema,
  type LegacyFields,
} from './preferences';
import { canonicalTimeZone } from '../time/timeZone';

/**
 * Every HTTP schema of the notifications area: what /api/notifications and /api/user/settings
 * accept and answer. The dispatcher validates with them and the OpenAPI document is built from them.
 */

// What the routes answer lives in responses.ts (no I/O in its imports, so the member app can
// import its types); the routes keep importing everything from here.
export { InboxPageSchema, NotificationRecordSchema, UserSettingsSchema } from './responses';
export type { InboxPage, NotificationRecord, UserSettings } from './responses';

/** Query of GET /api/notifications. */
export const ListQuerySchema = v.object({
  limit: pageLimit(DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE),
  cursor: cursorParameter(inboxCursor),
  unread: v.optional(v.picklist(['true', 'false'], 'must be true or false')),
});

// Any string: an id that cannot be an inbox id answers 404 in the service (isInboxId), as every
// id that is not the caller's does, rather than 400.
export const IdParamsSchema = v.object({ id: v.pipe(v.string(), v.nonEmpty()) });

/**
 * The IANA time zone of the user's clock times (`Europe/Berlin`), as its canonical name. Intl
 * decides what exists, so the service knows the same zones as the runtime that applies them.
 */
const TimeZoneSchema = v.pipe(
  v.string('must be an IANA time zone name such as Europe/Berlin'),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const canonical = canonicalTimeZone(dataset.value);
    if (canonical) return canonical;
    addIssue({ message: 'must be an IANA time zone name such as Europe/Berlin' });
    return NEVER;
  }),
);

const needsSomething = <T extends { notifications?: object; timeZone?: string } & LegacyFields>(input: T): boolean =>
  input.notifications !== undefined || input.timeZone !== undefined || hasLegacyFields(input);
const NOTHING_TO_WRITE = 'must contain a notifications block, a timeZone or legacy notification fields';

/** PUT body: a full block, or (older clients) only legacy flat fields; and/or the time zone. */
export const ReplaceSettingsBodySchema = v.pipe(
  v.object({ notifications: v.optional(NotificationPreferencesSchema), timeZone: v.optional(TimeZoneSchema), ...legacyFieldEntries }),
  v.check(needsSomething, NOTHING_TO_WRITE),
);
export type ReplaceSettingsBody = v.InferOutput<typeof ReplaceSettingsBodySchema>;

/** PATCH body: a partial block and/or legacy flat fields and/or the time zone. */
export const PatchSettingsBodySchema = v.pipe(
  v.object({ notifications: v.optional(NotificationPreferencesPatchSchema), timeZone: v.optional(TimeZoneSchema), ...legacyFieldEntries }),
  v.check(needsSomething, NOTHING_TO_WRITE),
);
export type PatchSettingsBody = v.InferOutput<typeof PatchSettingsBodySchema>;
