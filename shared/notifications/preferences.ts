import * as v from 'valibot';
import type { FieldError } from '../errors/domainErrors';
import { CATEGORIES } from './record';

/**
 * NotificationPreferences, version 1: the canonical `notifications` block stored under
 * /api/user/settings. Pure: schemas, defaults, merging and the cross-field rules; no I/O.
 */

export const SUMMARY_MODES = ['off', 'daily', 'weekly', 'monthly'] as const;
export type SummaryMode = (typeof SUMMARY_MODES)[number];

const CLOCK_TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
/** A time of day, "HH:MM" in 24-hour notation (00:00 to 23:59), or null. */
const clockTime = v.nullable(v.pipe(v.string(), v.regex(CLOCK_TIME, 'must be "HH:MM" (24 h, 00:00 to 23:59) or null')));
const flag = v.boolean('must be true or false');

const categoryEntries = Object.fromEntries(CATEGORIES.map((category) => [category, flag])) as Record<
  (typeof CATEGORIES)[number],
  typeof flag
>;
const pushEntries = { enabled: flag, sound: flag };
const summaryEntries = { mode: v.picklist(SUMMARY_MODES, 'must be one of off, daily, weekly, monthly'), time: clockTime };
const dndEntries = { enabled: flag, from: clockTime, to: clockTime };
const reminderEntries = { minutes15: flag, hour1: flag, hours24: flag, viaEmail: flag, viaPush: flag };
const updateEntries = { acceptDecline: flag, edits: flag, cancel: flag };
const version = v.literal(1, 'must be 1');
const OBJECT = 'must be a JSON object';
const UNKNOWN_KEY = 'is not a known key';

/**
 * The message of an object schema's own issues. valibot reports a missing key (expected `"key"`)
 * and an unknown key (expected `never`) with the object's message, so each gets its own words.
 */
const objectMessage = (issue: v.BaseIssue<unknown>): string =>
  issue.expected === 'never' ? UNKNOWN_KEY : issue.expected?.startsWith('"') ? 'is required' : OBJECT;

const arrayRejected = v.custom<never>(() => false, OBJECT);

/**
 * The object schema, refusing arrays. valibot's object schemas accept an array (its indices are
 * keys), so with every key optional `{ email: [] }` would pass as an empty patch; this runs the
 * array through a schema that always fails instead. Everything else (entries, kind, type, for
 * the OpenAPI document too) is the wrapped schema's own.
 */
function noArrays<const TSchema extends v.GenericSchema>(schema: TSchema): TSchema {
  return {
    ...schema,
    '~run'(dataset: v.UnknownDataset, config: v.Config<v.BaseIssue<unknown>>) {
      return Array.isArray(dataset.value) ? arrayRejected['~run'](dataset, config) : schema['~run'](dataset, config);
    },
  };
}

/** Every key required, unknown keys rejected, arrays rejected. */
function section<const TEntries extends v.ObjectEntries>(entries: TEntries) {
  return noArrays(v.strictObject(entries, objectMessage));
}

/** The full block: every key required, unknown keys rejected. */
export const NotificationPreferencesSchema = section({
  version,
  email: section({ enabled: flag, events: flag, invites: flag, categories: section(categoryEntries) }),
  push: section(pushEntries),
  summary: section(summaryEntries),
  dnd: section(dndEntries),
  reminders: section(reminderEntries),
  updates: section(updateEntries),
});
export type NotificationPreferences = v.InferOutput<typeof NotificationPreferencesSchema>;

/** Any subset of the given keys, unknown keys and arrays rejected. */
function partialSection<const TEntries extends v.ObjectEntries>(entries: TEntries) {
  return noArrays(v.partial(v.strictObject(entries, objectMessage)));
}

/** Any subset of the keys of `T`, at any depth. */
type DeepPartial<T> = { [TKey in keyof T]?: T[TKey] extends object ? DeepPartial<T[TKey]> : T[TKey] };
export type NotificationPreferencesPatch = DeepPartial<NotificationPreferences>;

/** A schema's PATCH form: its object schemas at every depth made partial, unknown keys and arrays still rejected. */
function patchOf(schema: v.GenericSchema): v.GenericSchema {
  if (schema.type !== 'strict_object') return schema;
  const { entries } = schema as v.StrictObjectSchema<v.ObjectEntries, undefined>;
  return partialSection(Object.fromEntries(Object.entries(entries).map(([key, entry]) => [key, patchOf(entry)])));
}

/** A partial block for PATCH, derived from the full one: any subset of keys at any depth. */
export const NotificationPreferencesPatchSchema = patchOf(NotificationPreferencesSchema) as v.GenericSchema<NotificationPreferencesPatch>;

/** The legacy flat root fields older clients write; each may be sent alone or partially. */
export const legacyFieldEntries = {
  emailEnabled: v.optional(flag),
  pushEnabled: v.optional(flag),
  categories: v.optional(partialSection(categoryEntries)),
  updates: v.optional(partialSection(updateEntries)),
};
export interface LegacyFields {
  emailEnabled?: boolean;
  pushEnabled?: boolean;
  categories?: Partial<NotificationPreferences['email']['categories']>;
  updates?: Partial<NotificationPreferences['updates']>;
}

/** The legacy mirror, always derived from the block and never stored. */
export interface LegacyMirror {
  emailEnabled: boolean;
  pushEnabled: boolean;
  categories: NotificationPreferences['email']['categories'];
  updates: NotificationPreferences['updates'];
}

/**
 * What a user who never saved preferences gets. Email starts off for a member without a
 * confirmed contact email (docs/notifications.md, Contact details), and on once they have one.
 */
export function defaultPreferences({ emailConfirmed = true }: { emailConfirmed?: boolean } = {}): NotificationPreferences {
  return {
    version: 1,
    email: {
      enabled: emailConfirmed,
      events: true,
      invites: true,
      categories: { training: true, competition: true, board: true, youth: true, club: true },
    },
    push: { enabled: true, sound: true },
    summary: { mode: 'off', time: null },
    dnd: { enabled: false, from: null, to: null },
    reminders: { minutes15: false, hour1: true, hours24: false, viaEmail: false, viaPush: true },
    updates: { acceptDecline: true, edits: true, cancel: true },
  };
}

type Plain = Record<string, unknown>;
const isPlain = (value: unknown): value is Plain => typeof value === 'object' && value !== null && !Array.isArray(value);

function mergeInto(target: Plain, patch: Plain): Plain {
  const merged: Plain = { ...target };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    const current = merged[key];
    merged[key] = isPlain(current) && isPlain(value) ? mergeInto(current, value) : value;
  }
  return merged;
}

/** The block with a validated partial block laid over it, at every depth. */
export function mergePreferences(current: NotificationPreferences, patch: NotificationPreferencesPatch): NotificationPreferences {
  return mergeInto(current, patch) as NotificationPreferences;
}

/** The block with legacy flat fields mapped onto it. */
export function applyLegacyFields(current: NotificationPreferences, legacy: LegacyFields): NotificationPreferences {
  return mergePreferences(current, {
    email: {
      ...(legacy.emailEnabled === undefined ? {} : { enabled: legacy.emailEnabled }),
      ...(legacy.categories ? { categories: legacy.categories } : {}),
    },
    ...(legacy.pushEnabled === undefined ? {} : { push: { enabled: legacy.pushEnabled } }),
    ...(legacy.updates ? { updates: legacy.updates } : {}),
  });
}

/** Whether any legacy flat field was sent. */
export function hasLegacyFields(legacy: LegacyFields): boolean {
  return (
    legacy.emailEnabled !== undefined || legacy.pushEnabled !== undefined || legacy.categories !== undefined || legacy.updates !== undefined
  );
}

/** The flat legacy fields derived from the block. */
export function legacyMirror(preferences: NotificationPreferences): LegacyMirror {
  return {
    emailEnabled: preferences.email.enabled,
    pushEnabled: preferences.push.enabled,
    categories: { ...preferences.email.categories },
    updates: { ...preferences.updates },
  };
}

/**
 * The rules that span keys, checked on the final block (after a merge too). Paths are relative
 * to the block: `dnd.from`.
 */
export function preferenceConflicts(preferences: NotificationPreferences): FieldError[] {
  const conflicts: FieldError[] = [];
  const { dnd } = preferences;
  if (dnd.enabled) {
    if (dnd.from === null) conflicts.push({ path: 'dnd.from', message: 'is required when dnd.enabled is true' });
    if (dnd.to === null) conflicts.push({ path: 'dnd.to', message: 'is required when dnd.enabled is true' });
    if (dnd.from !== null && dnd.from === dnd.to) conflicts.push({ path: 'dnd.to', message: 'must differ from dnd.from' });
  }
  return conflicts;
}

/** The sections of the block, in the order of the schema. */
const SECTIONS = Object.keys(NotificationPreferencesSchema.entries) as (keyof NotificationPreferences)[];

export interface StoredPreferences {
  preferences: NotificationPreferences;
  /**
   * Sections of the stored block that did not validate (a value from an older revision, a
   * hand-edited row) and were replaced by their defaults. Names only, never values.
   */
  drifted: string[];
}

/**
 * A stored block read back: laid over the defaults, so keys added in a later revision of
 * version 1 get their default instead of being missing, then validated section by section, so a
 * drifted section falls back to its defaults without discarding the user's other choices and
 * without ever handing an invalid block to the delivery rules.
 */
export function readStored(stored: unknown, defaults: NotificationPreferences = defaultPreferences()): StoredPreferences {
  if (!isPlain(stored)) return { preferences: defaults, drifted: stored === undefined || stored === null ? [] : ['(block)'] };
  const merged = mergeInto(defaults, stored);
  const preferences: Plain = {};
  const drifted: string[] = [];
  for (const key of SECTIONS) {
    const result = v.safeParse(NotificationPreferencesSchema.entries[key], merged[key]);
    if (result.success) preferences[key] = result.output;
    else {
      preferences[key] = defaults[key];
      drifted.push(key);
    }
  }
  // A single preference may be fine on its own yet break a rule spanning keys (quiet hours on
  // without times): the delivery rules expect consistent quiet hours.
  if (preferenceConflicts(preferences as NotificationPreferences).length > 0) {
    preferences['dnd'] = defaults.dnd;
    drifted.push('dnd');
  }
  return { preferences: preferences as NotificationPreferences, drifted };
}

/** As readStored, without the drift report. */
export function fromStored(stored: unknown, defaults?: NotificationPreferences): NotificationPreferences {
  return readStored(stored, defaults).preferences;
}
