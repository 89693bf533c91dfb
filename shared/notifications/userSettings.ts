import * as v from 'valibot';
import type { Sql } from '../db/client';
import { badRequest } from '../http/problem';
import {
  applyLegacyFields,
  hasLegacyFields,
  legacyFieldEntries,
  legacyMirror,
  mergePreferences,
  NotificationPreferencesPatchSchema,
  NotificationPreferencesSchema,
  preferenceConflicts,
  type LegacyFields,
  type LegacyMirror,
  type NotificationPreferences,
} from './preferences';
import { loadPreferences, loadPreferencesForUpdate, savePreferences } from './preferencesRepository';

/**
 * /api/user/settings: the canonical `notifications` block plus the legacy flat mirror. Other
 * root fields a client sends are ignored; inside the block unknown keys are rejected.
 */

const needsSomething = <T extends { notifications?: object } & LegacyFields>(input: T): boolean =>
  input.notifications !== undefined || hasLegacyFields(input);
const NOTHING_TO_WRITE = 'must contain a notifications block or legacy notification fields';

/** PUT body: a full block, or (older clients) only legacy flat fields. */
export const ReplaceSettingsBodySchema = v.pipe(
  v.object({ notifications: v.optional(NotificationPreferencesSchema), ...legacyFieldEntries }),
  v.check(needsSomething, NOTHING_TO_WRITE),
);
export type ReplaceSettingsBody = v.InferOutput<typeof ReplaceSettingsBodySchema>;

/** PATCH body: a partial block and/or legacy flat fields. */
export const PatchSettingsBodySchema = v.pipe(
  v.object({ notifications: v.optional(NotificationPreferencesPatchSchema), ...legacyFieldEntries }),
  v.check(needsSomething, NOTHING_TO_WRITE),
);
export type PatchSettingsBody = v.InferOutput<typeof PatchSettingsBodySchema>;

/** The response of every settings call. */
export const UserSettingsSchema = v.object({
  notifications: NotificationPreferencesSchema,
  emailEnabled: v.boolean(),
  pushEnabled: v.boolean(),
  categories: NotificationPreferencesSchema.entries.email.entries.categories,
  updates: NotificationPreferencesSchema.entries.updates,
});
export type UserSettings = { notifications: NotificationPreferences } & LegacyMirror;

function present(preferences: NotificationPreferences): UserSettings {
  return { notifications: preferences, ...legacyMirror(preferences) };
}

function assertConsistent(preferences: NotificationPreferences): void {
  const conflicts = preferenceConflicts(preferences);
  if (conflicts.length) {
    throw badRequest(
      'The notification preferences are inconsistent.',
      conflicts.map((conflict) => ({ ...conflict, path: `body.notifications.${conflict.path}` })),
    );
  }
}

/** The user's settings; defaults for a user who never saved any. */
export async function getUserSettings(sql: Sql, userId: string): Promise<UserSettings> {
  return present(await loadPreferences(sql, userId));
}

/**
 * PUT: the block replaces the stored one; without a block the legacy fields are mapped onto the
 * stored one. When both are sent the block wins and the flat fields are ignored.
 */
export async function replaceUserSettings(sql: Sql, userId: string, body: ReplaceSettingsBody): Promise<UserSettings> {
  return sql.begin(async (tx) => {
    const next = body.notifications ?? applyLegacyFields(await loadPreferencesForUpdate(tx, userId), body);
    assertConsistent(next);
    await savePreferences(tx, userId, next);
    return present(next);
  });
}

/**
 * PATCH: the partial block is merged into the stored one at every depth; without a block the
 * legacy fields are mapped onto it. When both are sent the block wins and the flat fields are ignored.
 */
export async function patchUserSettings(sql: Sql, userId: string, body: PatchSettingsBody): Promise<UserSettings> {
  return sql.begin(async (tx) => {
    const current = await loadPreferencesForUpdate(tx, userId);
    const next = body.notifications ? mergePreferences(current, body.notifications) : applyLegacyFields(current, body);
    assertConsistent(next);
    await savePreferences(tx, userId, next);
    return present(next);
  });
}
