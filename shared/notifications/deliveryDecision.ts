import type { NotificationPreferences, SummaryMode } from './preferences';
import type { Category } from './record';
import { instantOfWall, MINUTE, wallClock } from '../time/timeZone';

/**
 * Which email and push deliveries one notification gets, from the recipient's preferences.
 * Pure, so every rule is a table-driven test. Clock times (quiet hours, summary time) and summary
 * days are wall-clock times in the user's IANA time zone, which the caller passes in; daylight
 * saving time is honoured (22:00 stays 22:00 local in summer and in winter).
 */

export const NOTIFICATION_KINDS = ['billing', 'member', 'reminder', 'event', 'invite', 'update', 'report', 'duel', 'challenge'] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export const CHANNELS = ['email', 'push'] as const;
export type Channel = (typeof CHANNELS)[number];

export type UpdateType = keyof NotificationPreferences['updates'];
export type ReminderLead = 'minutes15' | 'hour1' | 'hours24';
export type Digest = Exclude<SummaryMode, 'off'>;

/** What the decision needs to know about a notification. */
export interface DeliverySubject {
  kind: NotificationKind;
  category?: Category;
  /** For kind `update`: which kind of change, gated by `updates.*`. */
  updateType?: UpdateType;
  /** For kind `reminder`: how long before the event, gated by `reminders.*`. */
  reminderLead?: ReminderLead;
  /** The external channels the producer wants at most; both when absent. */
  channels?: readonly Channel[];
  /**
   * Account-critical (billing, licensing): skips the category, kind, summary and quiet-hour
   * rules. The user's global email and push switches still apply.
   */
  critical?: boolean;
  /**
   * When the notification stops being useful (a reminder: the event's start). A delivery that
   * quiet hours or a summary would hold until after this instant goes out now instead, and
   * never as part of a digest: late is worse than during quiet hours for something time-bound.
   */
  expiresAt?: Date;
}

export interface Delivery {
  channel: Channel;
  /** Not before this instant: now, the end of the quiet hours, or the summary's send time. */
  deliverAfter: Date;
  /** Set when the email is folded into the user's summary of that period. */
  digest: Digest | null;
}

/** Summary emails go out at this local time when the user chose a mode but no time. */
export const DEFAULT_SUMMARY_TIME = '08:00';

/**
 * The deliveries for one notification. Precedence: the producer's channels, then the user's
 * channel switches, then (unless critical) category, kind and update/reminder switches, then
 * (unless critical) timing: email into the summary, push out of the quiet hours.
 */
export function decideDeliveries(preferences: NotificationPreferences, subject: DeliverySubject, now: Date, timeZone: string): Delivery[] {
  const wanted = subject.channels ?? CHANNELS;
  const deliveries: Delivery[] = [];
  if (wanted.includes('email') && emailAllowed(preferences, subject)) {
    deliveries.push(withinExpiry(emailTiming(preferences, subject, now, timeZone), subject, now));
  }
  if (wanted.includes('push') && pushAllowed(preferences, subject)) {
    const push: Delivery = { channel: 'push', deliverAfter: pushTime(preferences, subject, now, timeZone), digest: null };
    deliveries.push(withinExpiry(push, subject, now));
  }
  return deliveries;
}

/** A delivery held past the subject's expiry goes out now, as a single message. */
function withinExpiry(delivery: Delivery, subject: DeliverySubject, now: Date): Delivery {
  if (!subject.expiresAt || delivery.deliverAfter.getTime() <= subject.expiresAt.getTime()) return delivery;
  return { channel: delivery.channel, deliverAfter: now, digest: null };
}

function emailAllowed(preferences: NotificationPreferences, subject: DeliverySubject): boolean {
  if (!preferences.email.enabled) return false;
  if (subject.critical) return true;
  if (subject.category && !preferences.email.categories[subject.category]) return false;
  if (subject.kind === 'event' && !preferences.email.events) return false;
  if (subject.kind === 'invite' && !preferences.email.invites) return false;
  if (subject.kind === 'reminder' && !preferences.reminders.viaEmail) return false;
  return topicAllowed(preferences, subject);
}

function pushAllowed(preferences: NotificationPreferences, subject: DeliverySubject): boolean {
  if (!preferences.push.enabled) return false;
  if (subject.critical) return true;
  if (subject.kind === 'reminder' && !preferences.reminders.viaPush) return false;
  return topicAllowed(preferences, subject);
}

/** The switches that apply to both channels. */
function topicAllowed(preferences: NotificationPreferences, subject: DeliverySubject): boolean {
  if (subject.kind === 'update' && subject.updateType && !preferences.updates[subject.updateType]) return false;
  if (subject.kind === 'reminder' && subject.reminderLead && !preferences.reminders[subject.reminderLead]) return false;
  return true;
}

function emailTiming(preferences: NotificationPreferences, subject: DeliverySubject, now: Date, timeZone: string): Delivery {
  const mode = preferences.summary.mode;
  // A reminder is about a moment; folded into a later summary it would arrive too late.
  if (mode === 'off' || subject.critical || subject.kind === 'reminder') {
    return { channel: 'email', deliverAfter: now, digest: null };
  }
  return {
    channel: 'email',
    deliverAfter: nextSummaryTime(mode, preferences.summary.time ?? DEFAULT_SUMMARY_TIME, now, timeZone),
    digest: mode,
  };
}

function pushTime(preferences: NotificationPreferences, subject: DeliverySubject, now: Date, timeZone: string): Date {
  if (subject.critical) return now;
  const { dnd } = preferences;
  if (!dnd.enabled || dnd.from === null || dnd.to === null) return now;
  return quietHoursEnd(dnd.from, dnd.to, now, timeZone) ?? now;
}

/** Minutes after midnight of "HH:MM". */
function minutesOf(clock: string): number {
  const [hours, minutes] = clock.split(':').map(Number) as [number, number];
  return hours * 60 + minutes;
}

/** The local date `days` after the wall clock's date, at `minutes` after local midnight, as an instant. */
function localTime(wall: { year: number; month: number; day: number }, days: number, minutes: number, timeZone: string): Date {
  return instantOfWall(Date.UTC(wall.year, wall.month, wall.day + days) + minutes * MINUTE, timeZone);
}

/**
 * When `now` falls inside the quiet hours [from, to) of the wall clock in `timeZone`, the
 * instant they end; otherwise undefined. A window whose end is before its start crosses
 * midnight (22:00 to 07:00). The end is found on the local calendar, so a window spanning a
 * DST change still ends at its local time (07:00 CET after a night that started in CEST).
 */
export function quietHoursEnd(from: string, to: string, now: Date, timeZone: string): Date | undefined {
  const start = minutesOf(from);
  const end = minutesOf(to);
  const wall = wallClock(now, timeZone);
  const current = wall.hour * 60 + wall.minute;
  const inside = start < end ? current >= start && current < end : current >= start || current < end;
  if (!inside) return undefined;
  // Inside the window and before its end on the clock: the end is today; otherwise tomorrow.
  return localTime(wall, current < end ? 0 : 1, end, timeZone);
}

/**
 * The first send time of the user's summary strictly after `now`: daily at `time`, weekly on
 * Monday at `time`, monthly on the 1st at `time`, all on the wall clock and calendar of
 * `timeZone` (a Monday is the local Monday).
 */
export function nextSummaryTime(mode: Digest, time: string, now: Date, timeZone: string): Date {
  const at = minutesOf(time);
  const wall = wallClock(now, timeZone);
  const after = (candidate: Date, otherwise: () => Date) => (candidate.getTime() > now.getTime() ? candidate : otherwise());
  if (mode === 'daily') {
    return after(localTime(wall, 0, at, timeZone), () => localTime(wall, 1, at, timeZone));
  }
  if (mode === 'weekly') {
    const weekday = new Date(Date.UTC(wall.year, wall.month, wall.day)).getUTCDay();
    const daysToMonday = (8 - weekday) % 7;
    return after(localTime(wall, daysToMonday, at, timeZone), () => localTime(wall, daysToMonday + 7, at, timeZone));
  }
  const first = { year: wall.year, month: wall.month, day: 1 };
  return after(localTime(first, 0, at, timeZone), () => localTime({ ...first, month: first.month + 1 }, 0, at, timeZone));
}
