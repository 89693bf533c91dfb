import type { Sql } from '../db/client';
import { InvalidError } from '../errors/domainErrors';
import {
  applyLegacyFields,
  legacyMirror,
  mergePreferences,
  preferenceConflicts,
  type LegacyMirror,
  type NotificationPreferences,
} from './preferences';
import { loadSettings, loadSettingsForUpdate, savePreferences } from './preferencesRepository';
import type { PatchSettingsBody, ReplaceSettingsBody } from './schemas';

/**
 * /api/user/settings: the canonical `notifications` block plus the legacy flat mirror. Other
 * root fields a client sends are ignored; inside the block unknown keys are rejected.
 */

export type UserSettings = { notifications: NotificationPreferences; timeZone: string; emailAvailable: boolean } & LegacyMirror;

function present(preferences: NotificationPreferences, timeZone: string, emailAvailable: boolean): UserSettings {
  return { notifications: preferences, timeZone, emailAvailable, ...legacyMirror(preferences) };
}

function assertConsistent(preferences: NotificationPreferences): void {
  const conflicts = preferenceConflicts(preferences);
  if (conflicts.length) {
    throw new InvalidError(
      'The notification preferences are inconsistent.',
      conflicts.map((conflict) => ({ ...conflict, path: `notifications.${conflict.path}` })),
    );
  }
}

/** The user's settings; defaults for a user who never saved any. */
export async function getUserSettings(sql: Sql, userId: string): Promise<UserSettings> {
  const { preferences, timeZone, emailConfirmed } = await loadSettings(sql, userId);
  return present(preferences, timeZone, emailConfirmed);
}

/**
 * PUT: a block replaces the stored one whole, and legacy flat fields sent next to it are
 * ignored (every one of them maps into the block, so the block already says what they would).
 * Without a block the legacy fields are mapped onto the stored one. A timeZone replaces the
 * stored one; without it the stored one stays.
 */
export async function replaceUserSettings(sql: Sql, userId: string, body: ReplaceSettingsBody): Promise<UserSettings> {
  return sql.begin(async (tx) => {
    const current = await loadSettingsForUpdate(tx, userId);
    const next = body.notifications ?? applyLegacyFields(current.preferences, body);
    assertConsistent(next);
    const timeZone = body.timeZone ?? current.timeZone;
    await savePreferences(tx, userId, next, timeZone);
    return present(next, timeZone, current.emailConfirmed);
  });
}

/**
 * PATCH: the legacy flat fields are mapped onto the stored block first, then the partial block
 * is merged over that at every depth. So the block wins field by field where both name the
 * same setting (a client echoing a stale mirror next to an edited block cannot undo its edit),
 * and a legacy field the block does not mention still applies. A timeZone replaces the stored one.
 */
export async function patchUserSettings(sql: Sql, userId: string, body: PatchSettingsBody): Promise<UserSettings> {
  return sql.begin(async (tx) => {
    const current = await loadSettingsForUpdate(tx, userId);
    const next = mergePreferences(applyLegacyFields(current.preferences, body), body.notifications ?? {});
    assertConsistent(next);
    const timeZone = body.timeZone ?? current.timeZone;
    await savePreferences(tx, userId, next, timeZone);
    return present(next, timeZone, current.emailConfirmed);
  });
}
