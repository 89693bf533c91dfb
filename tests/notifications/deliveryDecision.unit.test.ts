import { decideDeliveries, nextSummaryTime, quietHoursEnd, type DeliverySubject } from '../../shared/notifications/deliveryDecision';
import { defaultPreferences, mergePreferences, type NotificationPreferencesPatch } from '../../shared/notifications/preferences';

const at = (iso: string) => new Date(iso);
const prefs = (patch: NotificationPreferencesPatch = {}) => mergePreferences(defaultPreferences(), patch);
const summarise = (deliveries: ReturnType<typeof decideDeliveries>) =>
  deliveries.map((d) => `${d.channel}@${d.deliverAfter.toISOString()}${d.digest ? `/${d.digest}` : ''}`);

const NOW = '2026-11-18T12:00:00.000Z'; // a Wednesday

type Case = [string, NotificationPreferencesPatch, DeliverySubject, string, string[]];
/** A member's notice at `now` under quiet hours: the email goes now, the push at `pushAt`. */
const quietHours = (name: string, dnd: NonNullable<NotificationPreferencesPatch['dnd']>, now: string, pushAt: string): Case => [
  name,
  { dnd: { enabled: true, ...dnd } },
  { kind: 'member' },
  now,
  [`email@${now}`, `push@${pushAt}`],
];
/** A notice of `kind` at NOW under a summary: the email as a digest at `emailAt`, the push now. */
const summarised = (
  name: string,
  summary: NotificationPreferencesPatch['summary'],
  kind: DeliverySubject['kind'],
  emailAt: string,
): Case => [name, { summary }, { kind }, NOW, [`email@${emailAt}/${summary?.mode}`, `push@${NOW}`]];

describe('decideDeliveries', () => {
  const cases: Case[] = [
    ['defaults: email and push now', {}, { kind: 'member' }, NOW, [`email@${NOW}`, `push@${NOW}`]],
    ['email switched off', { email: { enabled: false } }, { kind: 'member' }, NOW, [`push@${NOW}`]],
    ['push switched off', { push: { enabled: false } }, { kind: 'member' }, NOW, [`email@${NOW}`]],
    [
      'category off blocks email only',
      { email: { categories: { youth: false } } },
      { kind: 'event', category: 'youth' },
      NOW,
      [`push@${NOW}`],
    ],
    [
      'other category unaffected',
      { email: { categories: { youth: false } } },
      { kind: 'event', category: 'board' },
      NOW,
      [`email@${NOW}`, `push@${NOW}`],
    ],
    ['email.events off', { email: { events: false } }, { kind: 'event' }, NOW, [`push@${NOW}`]],
    ['email.invites off', { email: { invites: false } }, { kind: 'invite' }, NOW, [`push@${NOW}`]],
    ['updates.cancel off blocks both', { updates: { cancel: false } }, { kind: 'update', updateType: 'cancel' }, NOW, []],
    ['updates.edits on', { updates: { cancel: false } }, { kind: 'update', updateType: 'edits' }, NOW, [`email@${NOW}`, `push@${NOW}`]],
    ['reminder by default: push only', {}, { kind: 'reminder', reminderLead: 'hour1' }, NOW, [`push@${NOW}`]],
    [
      'reminder viaEmail',
      { reminders: { viaEmail: true } },
      { kind: 'reminder', reminderLead: 'hour1' },
      NOW,
      [`email@${NOW}`, `push@${NOW}`],
    ],
    ['reminder lead switched off', {}, { kind: 'reminder', reminderLead: 'minutes15' }, NOW, []],
    ['producer restricts channels', {}, { kind: 'billing', channels: ['email'] }, NOW, [`email@${NOW}`]],
    quietHours('DND inside a same-day window defers push to its end', { from: '11:00', to: '13:30' }, NOW, '2026-11-18T13:30:00.000Z'),
    quietHours('DND outside the window: push now', { from: '13:00', to: '14:00' }, NOW, NOW),
    quietHours(
      'DND crossing midnight, late evening: to the next morning',
      { from: '22:00', to: '07:00' },
      '2026-11-18T23:15:00.000Z',
      '2026-11-19T07:00:00.000Z',
    ),
    quietHours(
      'DND crossing midnight, early morning: to the same morning',
      { from: '22:00', to: '07:00' },
      '2026-11-19T06:59:00.000Z',
      '2026-11-19T07:00:00.000Z',
    ),
    quietHours(
      'DND crossing midnight, at its end: now',
      { from: '22:00', to: '07:00' },
      '2026-11-19T07:00:00.000Z',
      '2026-11-19T07:00:00.000Z',
    ),
    quietHours('DND disabled ignores its times', { enabled: false, from: '00:00', to: '23:59' }, NOW, NOW),
    summarised('summary daily at 18:00', { mode: 'daily', time: '18:00' }, 'report', '2026-11-18T18:00:00.000Z'),
    summarised('summary daily without a time: 08:00 next day', { mode: 'daily' }, 'report', '2026-11-19T08:00:00.000Z'),
    summarised('summary weekly: next Monday', { mode: 'weekly', time: '07:30' }, 'duel', '2026-11-23T07:30:00.000Z'),
    summarised('summary monthly: the 1st', { mode: 'monthly', time: '09:00' }, 'challenge', '2026-12-01T09:00:00.000Z'),
    [
      'reminders are never folded into a summary',
      { summary: { mode: 'daily' }, reminders: { viaEmail: true } },
      { kind: 'reminder' },
      NOW,
      [`email@${NOW}`, `push@${NOW}`],
    ],
    [
      'critical skips category, summary and DND',
      { email: { categories: { club: false } }, summary: { mode: 'weekly' }, dnd: { enabled: true, from: '00:00', to: '23:59' } },
      { kind: 'billing', category: 'club', critical: true },
      NOW,
      [`email@${NOW}`, `push@${NOW}`],
    ],
    [
      'critical still honours the channel switches',
      { email: { enabled: false }, push: { enabled: false } },
      { kind: 'billing', critical: true },
      NOW,
      [],
    ],
  ];

  it.each(cases)('%s (UTC)', (_name, patch, subject, now, expected) => {
    expect(summarise(decideDeliveries(prefs(patch), subject, at(now), 'UTC'))).toEqual(expected);
  });
});

describe("decideDeliveries in the user's time zone (Europe/Berlin: CET +1, CEST +2)", () => {
  const BERLIN = 'Europe/Berlin';
  const QUIET = { dnd: { enabled: true, from: '22:00', to: '07:00' } } as const;
  const cases: [string, NotificationPreferencesPatch, string, string][] = [
    // 22:00 local is 21:00Z in winter and 20:00Z in summer: the window moves with DST.
    ['winter, 21:59 local: before the window', QUIET, '2026-11-18T20:59:00.000Z', '2026-11-18T20:59:00.000Z'],
    ['winter, 22:00 local: deferred to 07:00 CET', QUIET, '2026-11-18T21:00:00.000Z', '2026-11-19T06:00:00.000Z'],
    ['summer, 21:59 local: before the window', QUIET, '2026-07-15T19:59:00.000Z', '2026-07-15T19:59:00.000Z'],
    ['summer, 22:00 local: deferred to 07:00 CEST', QUIET, '2026-07-15T20:00:00.000Z', '2026-07-16T05:00:00.000Z'],
    [
      'crossing midnight: 00:30 local (23:30Z the day before) to the same morning',
      QUIET,
      '2026-11-18T23:30:00.000Z',
      '2026-11-19T06:00:00.000Z',
    ],
    ['crossing midnight: 06:59 local', QUIET, '2026-11-19T05:59:00.000Z', '2026-11-19T06:00:00.000Z'],
    ['crossing midnight: 07:00 local is outside', QUIET, '2026-11-19T06:00:00.000Z', '2026-11-19T06:00:00.000Z'],
    // DST ends on 2026-10-25 (03:00 CEST → 02:00 CET): the night starts at +2 and ends at +1.
    ['night into the end of DST: 22:30 CEST to 07:00 CET', QUIET, '2026-10-24T20:30:00.000Z', '2026-10-25T06:00:00.000Z'],
    // DST starts on 2026-03-29 (02:00 CET → 03:00 CEST): the night starts at +1 and ends at +2.
    ['night into the start of DST: 22:30 CET to 07:00 CEST', QUIET, '2026-03-28T21:30:00.000Z', '2026-03-29T05:00:00.000Z'],
    [
      'a window ending in the skipped hour ends after the gap',
      { dnd: { enabled: true, from: '01:00', to: '02:30' } },
      '2026-03-29T00:30:00.000Z',
      '2026-03-29T01:30:00.000Z',
    ],
    [
      'same-day window in local time',
      { dnd: { enabled: true, from: '12:00', to: '14:00' } },
      '2026-07-15T10:30:00.000Z',
      '2026-07-15T12:00:00.000Z',
    ],
  ];

  it.each(cases)('push: %s', (_name, patch, now, expectedPush) => {
    const push = decideDeliveries(prefs(patch), { kind: 'member', channels: ['push'] }, at(now), BERLIN);
    expect(summarise(push)).toEqual([`push@${expectedPush}`]);
  });

  const summaries: [string, NotificationPreferencesPatch, string, string][] = [
    [
      'daily 08:00 across the end of DST is 08:00 CET',
      { summary: { mode: 'daily', time: '08:00' } },
      '2026-10-24T12:00:00.000Z',
      '2026-10-25T07:00:00.000Z/daily',
    ],
    ['daily 08:00 in summer', { summary: { mode: 'daily', time: '08:00' } }, '2026-07-15T12:00:00.000Z', '2026-07-16T06:00:00.000Z/daily'],
    [
      'daily 00:30: already the next local day at 23:15Z',
      { summary: { mode: 'daily', time: '00:30' } },
      '2026-11-18T23:15:00.000Z',
      '2026-11-18T23:30:00.000Z/daily',
    ],
    ['daily without a time: 08:00 local', { summary: { mode: 'daily' } }, '2026-11-18T12:00:00.000Z', '2026-11-19T07:00:00.000Z/daily'],
    // 23:30Z on Sunday 22 Nov is Monday 00:30 in Berlin: this Monday's 08:00, not next week's.
    [
      'weekly: the local Monday',
      { summary: { mode: 'weekly', time: '08:00' } },
      '2026-11-22T23:30:00.000Z',
      '2026-11-23T07:00:00.000Z/weekly',
    ],
    // 23:30Z on 30 Nov is 1 Dec 00:30 in Berlin: the local 1st has begun.
    [
      'monthly: the local 1st',
      { summary: { mode: 'monthly', time: '00:15' } },
      '2026-11-30T23:30:00.000Z',
      '2026-12-31T23:15:00.000Z/monthly',
    ],
  ];

  it.each(summaries)('email: %s', (_name, patch, now, expectedEmail) => {
    const email = decideDeliveries(prefs(patch), { kind: 'report', channels: ['email'] }, at(now), BERLIN);
    expect(summarise(email)).toEqual([`email@${expectedEmail}`]);
  });
});

describe('decideDeliveries with expiresAt', () => {
  const QUIET = prefs({ dnd: { enabled: true, from: '22:00', to: '07:00' }, reminders: { viaEmail: true }, summary: { mode: 'daily' } });
  const NIGHT = '2026-11-18T23:15:00.000Z';
  const reminder = (expiresAt?: string): DeliverySubject => ({
    kind: 'reminder',
    reminderLead: 'hour1',
    ...(expiresAt ? { expiresAt: at(expiresAt) } : {}),
  });

  it.each([
    ['no expiry: deferred to the end of the quiet hours', undefined, ['email@2026-11-18T23:15:00.000Z', 'push@2026-11-19T07:00:00.000Z']],
    [
      'expiring before the quiet hours end: sent now',
      '2026-11-19T00:15:00.000Z',
      ['email@2026-11-18T23:15:00.000Z', 'push@2026-11-18T23:15:00.000Z'],
    ],
    [
      'expiring exactly at their end: still deferred',
      '2026-11-19T07:00:00.000Z',
      ['email@2026-11-18T23:15:00.000Z', 'push@2026-11-19T07:00:00.000Z'],
    ],
    ['expiring after their end: deferred', '2026-11-19T09:00:00.000Z', ['email@2026-11-18T23:15:00.000Z', 'push@2026-11-19T07:00:00.000Z']],
  ] as const)('%s', (_name, expiresAt, expected) => {
    expect(summarise(decideDeliveries(QUIET, reminder(expiresAt), at(NIGHT), 'UTC'))).toEqual(expected);
  });

  it('sends a digest email that would arrive after the expiry now, as a single message', () => {
    const subject: DeliverySubject = { kind: 'event', channels: ['email'], expiresAt: at('2026-11-19T06:00:00.000Z') };
    expect(summarise(decideDeliveries(QUIET, subject, at(NIGHT), 'UTC'))).toEqual([`email@${NIGHT}`]);
    expect(summarise(decideDeliveries(QUIET, { ...subject, expiresAt: undefined }, at(NIGHT), 'UTC'))).toEqual([
      'email@2026-11-19T08:00:00.000Z/daily',
    ]);
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
    expect(quietHoursEnd(from, to, at(now), 'UTC')?.toISOString()).toBe(expected);
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
    expect(nextSummaryTime(mode, time, at(now), 'UTC').toISOString()).toBe(expected);
  });
});
