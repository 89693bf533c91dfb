import { decideDeliveries, nextSummaryTime, quietHoursEnd, type DeliverySubject } from '../../shared/notifications/deliveryDecision';
import { defaultPreferences, mergePreferences, type NotificationPreferencesPatch } from '../../shared/notifications/preferences';

const at = (iso: string) => new Date(iso);
const prefs = (patch: NotificationPreferencesPatch = {}) => mergePreferences(defaultPreferences(), patch);
const summarise = (deliveries: ReturnType<typeof decideDeliveries>) =>
  deliveries.map((d) => `${d.channel}@${d.deliverAfter.toISOString()}${d.digest ? `/${d.digest}` : ''}`);

const NOW = '2026-11-18T12:00:00.000Z'; // a Wednesday

describe('decideDeliveries', () => {
  const cases: [string, NotificationPreferencesPatch, DeliverySubject, string, string[]][] = [
    ['defaults: email and push now', {}, { kind: 'member' }, NOW, [`email@${NOW}`, `push@${NOW}`]],
    ['email switched off', { email: { enabled: false } }, { kind: 'member' }, NOW, [`push@${NOW}`]],
    ['push switched off', { push: { enabled: false } }, { kind: 'member' }, NOW, [`email@${NOW}`]],
    ['category off blocks email only', { email: { categories: { youth: false } } }, { kind: 'event', category: 'youth' }, NOW, [`push@${NOW}`]],
    ['other category unaffected', { email: { categories: { youth: false } } }, { kind: 'event', category: 'board' }, NOW, [`email@${NOW}`, `push@${NOW}`]],
    ['email.events off', { email: { events: false } }, { kind: 'event' }, NOW, [`push@${NOW}`]],
    ['email.invites off', { email: { invites: false } }, { kind: 'invite' }, NOW, [`push@${NOW}`]],
    ['updates.cancel off blocks both', { updates: { cancel: false } }, { kind: 'update', updateType: 'cancel' }, NOW, []],
    ['updates.edits on', { updates: { cancel: false } }, { kind: 'update', updateType: 'edits' }, NOW, [`email@${NOW}`, `push@${NOW}`]],
    ['reminder by default: push only', {}, { kind: 'reminder', reminderLead: 'hour1' }, NOW, [`push@${NOW}`]],
    ['reminder viaEmail', { reminders: { viaEmail: true } }, { kind: 'reminder', reminderLead: 'hour1' }, NOW, [`email@${NOW}`, `push@${NOW}`]],
    ['reminder lead switched off', {}, { kind: 'reminder', reminderLead: 'minutes15' }, NOW, []],
    ['producer restricts channels', {}, { kind: 'billing', channels: ['email'] }, NOW, [`email@${NOW}`]],
    [
      'DND inside a same-day window defers push to its end',
      { dnd: { enabled: true, from: '11:00', to: '13:30' } },
      { kind: 'member' },
      NOW,
      [`email@${NOW}`, 'push@2026-11-18T13:30:00.000Z'],
    ],
    ['DND outside the window: push now', { dnd: { enabled: true, from: '13:00', to: '14:00' } }, { kind: 'member' }, NOW, [`email@${NOW}`, `push@${NOW}`]],
    [
      'DND crossing midnight, late evening: to the next morning',
      { dnd: { enabled: true, from: '22:00', to: '07:00' } },
      { kind: 'member' },
      '2026-11-18T23:15:00.000Z',
      ['email@2026-11-18T23:15:00.000Z', 'push@2026-11-19T07:00:00.000Z'],
    ],
    [
      'DND crossing midnight, early morning: to the same morning',
      { dnd: { enabled: true, from: '22:00', to: '07:00' } },
      { kind: 'member' },
      '2026-11-19T06:59:00.000Z',
      ['email@2026-11-19T06:59:00.000Z', 'push@2026-11-19T07:00:00.000Z'],
    ],
    [
      'DND crossing midnight, at its end: now',
      { dnd: { enabled: true, from: '22:00', to: '07:00' } },
      { kind: 'member' },
      '2026-11-19T07:00:00.000Z',
      ['email@2026-11-19T07:00:00.000Z', 'push@2026-11-19T07:00:00.000Z'],
    ],
    ['DND disabled ignores its times', { dnd: { enabled: false, from: '00:00', to: '23:59' } }, { kind: 'member' }, NOW, [`email@${NOW}`, `push@${NOW}`]],
    ['summary daily at 18:00', { summary: { mode: 'daily', time: '18:00' } }, { kind: 'report' }, NOW, ['email@2026-11-18T18:00:00.000Z/daily', `push@${NOW}`]],
    ['summary daily without a time: 08:00 next day', { summary: { mode: 'daily' } }, { kind: 'report' }, NOW, ['email@2026-11-19T08:00:00.000Z/daily', `push@${NOW}`]],
    ['summary weekly: next Monday', { summary: { mode: 'weekly', time: '07:30' } }, { kind: 'duel' }, NOW, ['email@2026-11-23T07:30:00.000Z/weekly', `push@${NOW}`]],
    ['summary monthly: the 1st', { summary: { mode: 'monthly', time: '09:00' } }, { kind: 'challenge' }, NOW, ['email@2026-12-01T09:00:00.000Z/monthly', `push@${NOW}`]],
    ['reminders are never folded into a summary', { summary: { mode: 'daily' }, reminders: { viaEmail: true } }, { kind: 'reminder' }, NOW, [`email@${NOW}`, `push@${NOW}`]],
    [
      'critical skips category, summary and DND',
      { email: { categories: { club: false } }, summary: { mode: 'weekly' }, dnd: { enabled: true, from: '00:00', to: '23:59' } },
      { kind: 'billing', category: 'club', critical: true },
      NOW,
      [`email@${NOW}`, `push@${NOW}`],
    ],
    ['critical still honours the channel switches', { email: { enabled: false }, push: { enabled: false } }, { kind: 'billing', critical: true }, NOW, []],
  ];

  it.each(cases)('%s', (_name, patch, subject, now, expected) => {
    expect(summarise(decideDeliveries(prefs(patch), subject, at(now)))).toEqual(expected);
  });
});

describe('quietHoursEnd', () => {
  it.each([
    ['22:00', '07:00', '2026-11-18T21:59:59.000Z', undefined],
    ['22:00', '07:00', '2026-11-18T22:00:00.000Z', '2026-11-19T07:00:00.000Z'],
    ['22:00', '07:00', '2026-11-19T00:30:00.000Z', '2026-11-19T07:00:00.000Z'],
    ['08:00', '17:00', '2026-11-18T16:59:00.000Z', '2026-11-18T17:00:00.000Z'],
    ['08:00', '17:00', '2026-11-18T17:00:00.000Z', undefined],
    ['08:00', '17:00', '2026-11-18T07:59:00.000Z', undefined],
  ])('%s to %s at %s', (from, to, now, expected) => {
    expect(quietHoursEnd(from, to, at(now))?.toISOString()).toBe(expected);
  });
});

describe('nextSummaryTime', () => {
  it.each([
    ['daily', '12:00', '2026-11-18T12:00:00.000Z', '2026-11-19T12:00:00.000Z'],
    ['weekly', '08:00', '2026-11-23T07:00:00.000Z', '2026-11-23T08:00:00.000Z'],
    ['weekly', '08:00', '2026-11-23T08:00:00.000Z', '2026-11-30T08:00:00.000Z'],
    ['weekly', '08:00', '2026-11-22T23:00:00.000Z', '2026-11-23T08:00:00.000Z'],
    ['monthly', '08:00', '2026-12-31T23:00:00.000Z', '2027-01-01T08:00:00.000Z'],
    ['monthly', '08:00', '2026-12-01T07:00:00.000Z', '2026-12-01T08:00:00.000Z'],
  ] as const)('%s at %s after %s', (mode, time, now, expected) => {
    expect(nextSummaryTime(mode, time, at(now)).toISOString()).toBe(expected);
  });
});
