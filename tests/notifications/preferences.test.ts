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
} from '../../shared/notifications/preferences';

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
});
