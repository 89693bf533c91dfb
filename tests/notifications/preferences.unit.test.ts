import * as v from 'valibot';
import {
  applyLegacyFields,
  defaultPreferences,
  fromStored,
  legacyMirror,
  mergePreferences,
  NotificationPreferencesPatchSchema,
  NotificationPreferencesSchema,
  preferenceConflicts,
  readStored,
} from '../../shared/notifications/preferences';
import { canonicalTimeZone, instantOfWall } from '../../shared/time/timeZone';

const issuePaths = (schema: v.GenericSchema, input: unknown) => {
  const result = v.safeParse(schema, input);
  return result.success ? [] : result.issues.map((issue) => v.getDotPath(issue));
};

describe('notification preferences (pure)', () => {
  it('the defaults pass the full schema and carry version 1', () => {
    expect(v.parse(NotificationPreferencesSchema, defaultPreferences())).toEqual(defaultPreferences());
    expect(defaultPreferences().version).toBe(1);
  });

  it('deep-merges a partial block without touching siblings', () => {
    const merged = mergePreferences(defaultPreferences(), { email: { categories: { youth: false } }, dnd: { from: '22:00' } });
    expect(merged.email.categories).toEqual({ training: true, competition: true, board: true, youth: false, club: true });
    expect(merged.email.enabled).toBe(true);
    expect(merged.dnd).toEqual({ enabled: false, from: '22:00', to: null });
  });

  it('sets a time back to null through a merge', () => {
    const withTime = mergePreferences(defaultPreferences(), { summary: { mode: 'daily', time: '18:00' } });
    expect(mergePreferences(withTime, { summary: { time: null } }).summary).toEqual({ mode: 'daily', time: null });
  });

  it('maps legacy flat fields into the block and mirrors them back', () => {
    const mapped = applyLegacyFields(defaultPreferences(), {
      emailEnabled: false,
      pushEnabled: false,
      categories: { board: false },
      updates: { edits: false },
    });
    expect(mapped.email.enabled).toBe(false);
    expect(mapped.push.enabled).toBe(false);
    expect(mapped.email.categories.board).toBe(false);
    expect(mapped.updates).toEqual({ acceptDecline: true, edits: false, cancel: true });
    expect(legacyMirror(mapped)).toEqual({
      emailEnabled: false,
      pushEnabled: false,
      categories: mapped.email.categories,
      updates: mapped.updates,
    });
  });

  it.each([
    ['summary.mode', { summary: { mode: 'hourly' } }],
    ['dnd.from', { dnd: { from: '24:00' } }],
    ['dnd.to', { dnd: { to: '7:00' } }],
    ['summary.time', { summary: { time: '18:00:00' } }],
    ['version', { version: 2 }],
    ['email.enabled', { email: { enabled: 'yes' } }],
    ['push.vibrate', { push: { vibrate: true } }],
    ['unknown', { unknown: {} }],
  ])('rejects a bad partial block at %s', (path, patch) => {
    expect(issuePaths(NotificationPreferencesPatchSchema, patch)).toContain(path);
  });

  it.each([
    ['email', { email: [] }],
    ['email.categories', { email: { categories: [] } }],
    ['push', { push: [true] }],
    ['dnd', { dnd: [] }],
    ['updates', { updates: [] }],
  ])('rejects an array in place of an object at %s', (path, patch) => {
    const result = v.safeParse(NotificationPreferencesPatchSchema, patch);
    expect(result.success).toBe(false);
    const issues = result.success ? [] : result.issues;
    expect(issues.map((issue) => [v.getDotPath(issue), issue.message])).toEqual([[path, 'must be a JSON object']]);
  });

  it('rejects arrays in the full block too', () => {
    expect(issuePaths(NotificationPreferencesSchema, { ...defaultPreferences(), summary: [] })).toEqual(['summary']);
    expect(issuePaths(NotificationPreferencesSchema, [])).toEqual([null]);
  });

  it('names an unknown key as such, and a missing key as required', () => {
    const unknown = v.safeParse(NotificationPreferencesPatchSchema, { push: { vibrate: true } });
    expect(unknown.success ? [] : unknown.issues.map((issue) => [v.getDotPath(issue), issue.message])).toEqual([
      ['push.vibrate', 'is not a known key'],
    ]);
    const { push: _dropped, ...withoutPush } = defaultPreferences();
    const missing = v.safeParse(NotificationPreferencesSchema, withoutPush);
    expect(missing.success ? [] : missing.issues.map((issue) => [v.getDotPath(issue), issue.message])).toEqual([['push', 'is required']]);
  });

  it('requires every key in a full block', () => {
    const { reminders: _dropped, ...withoutReminders } = defaultPreferences();
    expect(issuePaths(NotificationPreferencesSchema, withoutReminders)).toContain('reminders');
  });

  it('names dnd.from and dnd.to when quiet hours are on without times', () => {
    const block = mergePreferences(defaultPreferences(), { dnd: { enabled: true } });
    expect(preferenceConflicts(block).map((c) => c.path)).toEqual(['dnd.from', 'dnd.to']);
    expect(preferenceConflicts(mergePreferences(block, { dnd: { from: '22:00', to: '22:00' } })).map((c) => c.path)).toEqual(['dnd.to']);
    expect(preferenceConflicts(mergePreferences(block, { dnd: { from: '22:00', to: '07:00' } }))).toEqual([]);
  });

  it('reads a stored block over the defaults', () => {
    expect(fromStored(undefined)).toEqual(defaultPreferences());
    expect(fromStored({ version: 1, push: { sound: false } }).push).toEqual({ enabled: true, sound: false });
  });

  it('falls back to the defaults per section when the stored block drifted, keeping the valid ones', () => {
    const stored = {
      version: 1,
      push: { enabled: false, sound: 'loud' },
      summary: { mode: 'hourly', time: null },
      email: [],
      reminders: { viaEmail: true },
      dnd: { enabled: true, from: null, to: null },
      legacyThing: true,
    };
    const { preferences, drifted } = readStored(stored);
    expect(drifted.sort()).toEqual(['dnd', 'email', 'push', 'summary']);
    expect(preferences.push).toEqual(defaultPreferences().push);
    expect(preferences.summary).toEqual(defaultPreferences().summary);
    expect(preferences.email).toEqual(defaultPreferences().email);
    expect(preferences.dnd).toEqual(defaultPreferences().dnd);
    expect(preferences.reminders).toEqual({ ...defaultPreferences().reminders, viaEmail: true });
    expect(v.parse(NotificationPreferencesSchema, preferences)).toEqual(preferences);
    expect(readStored(['not', 'a', 'block'])).toEqual({ preferences: defaultPreferences(), drifted: ['(block)'] });
    expect(readStored({ version: 2 }).preferences.version).toBe(1);
  });
});

describe('time zones (pure)', () => {
  it.each([
    ['Europe/Berlin', 'Europe/Berlin'],
    ['europe/berlin', 'Europe/Berlin'],
    ['UTC', 'UTC'],
    ['America/Port-au-Prince', 'America/Port-au-Prince'],
    ['Mars/Olympus', undefined],
    ['+01:00', undefined],
    ['', undefined],
    ['Europe/Berlin\u0000', undefined],
  ])('canonicalTimeZone(%j) is %j', (name, expected) => {
    expect(canonicalTimeZone(name)).toBe(expected);
  });

  it.each([
    // 02:30 happens twice on 2026-10-25 in Berlin: the earlier (CEST) instant.
    ['2026-10-25T02:30:00.000Z', '2026-10-25T00:30:00.000Z'],
    // 02:30 does not happen on 2026-03-29 in Berlin: moved forward by the gap, 03:30 CEST.
    ['2026-03-29T02:30:00.000Z', '2026-03-29T01:30:00.000Z'],
    ['2026-07-15T22:00:00.000Z', '2026-07-15T20:00:00.000Z'],
    ['2026-11-18T22:00:00.000Z', '2026-11-18T21:00:00.000Z'],
  ])('the Berlin wall clock %s is the instant %s', (wall, instant) => {
    expect(instantOfWall(Date.parse(wall), 'Europe/Berlin').toISOString()).toBe(instant);
  });
});
