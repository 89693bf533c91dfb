import type { NotificationPreferences, SummaryMode } from './preferences';
import type { Category } from './record';

/**
 * Which email and push deliveries one notification gets, from the recipient's preferences.
 * Pure, so every rule is a table-driven test. All clock times are UTC: the preferences carry
 * no time zone.
 */

export const NOTIFICATION_KINDS = [
  'billing',
  'member',
  'reminder',
  'event',
  'invite',
  'update',
  'report',
  'duel',
  'challenge',
] as const;
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
}

export interface Delivery {
  channel: Channel;
  /** Not before this instant: now, the end of the quiet hours, or the summary's send time. */
  deliverAfter: Date;
  /** Set when the email is folded into the user's summary of that period. */
  digest: Digest | null;
}

/** Summary emails go out at this UTC time when the user chose a mode but no time. */
export const DEFAULT_SUMMARY_TIME = '08:00';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/**
 * The deliveries for one notification. Precedence: the producer's channels, then the user's
 * channel switches, then (unless critical) category, kind and update/reminder switches, then
 * (unless critical) timing: email into the summary, push out of the quiet hours.
 */
export function decideDeliveries(
  preferences: NotificationPreferences,
  subject: DeliverySubject,
  now: Date,
): Delivery[] {
  const wanted = subject.channels ?? CHANNELS;
  const deliveries: Delivery[] = [];
  if (wanted.includes('email') && emailAllowed(preferences, subject)) {
    deliveries.push(emailTiming(preferences, subject, now));
  }
  if (wanted.includes('push') && pushAllowed(preferences, subject)) {
    deliveries.push({ channel: 'push', deliverAfter: pushTime(preferences, subject, now), digest: null });
  }
  return deliveries;
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

function emailTiming(preferences: NotificationPreferences, subject: DeliverySubject, now: Date): Delivery {
  const mode = preferences.summary.mode;
  // A reminder is about a moment; folded into a later summary it would arrive too late.
  if (mode === 'off' || subject.critical || subject.kind === 'reminder') {
    return { channel: 'email', deliverAfter: now, digest: null };
  }
  return {
    channel: 'email',
    deliverAfter: nextSummaryTime(mode, preferences.summary.time ?? DEFAULT_SUMMARY_TIME, now),
    digest: mode,
  };
}

function pushTime(preferences: NotificationPreferences, subject: DeliverySubject, now: Date): Date {
  if (subject.critical) return now;
  const { dnd } = preferences;
  if (!dnd.enabled || dnd.from === null || dnd.to === null) return now;
  return quietHoursEnd(dnd.from, dnd.to, now) ?? now;
}

/** Minutes after midnight of "HH:MM". */
function minutesOf(clock: string): number {
  const [hours, minutes] = clock.split(':').map(Number) as [number, number];
  return hours * 60 + minutes;
}

/** The UTC midnight that starts `now`'s day. */
function startOfDay(now: Date): number {
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
}

/**
 * When `now` falls inside the quiet hours [from, to), the instant they end; otherwise
 * undefined. A window whose end is before its start crosses midnight (22:00 to 07:00).
 */
export function quietHoursEnd(from: string, to: string, now: Date): Date | undefined {
  const start = minutesOf(from);
  const end = minutesOf(to);
  const current = now.getUTCHours() * 60 + now.getUTCMinutes();
  const inside = start < end ? current >= start && current < end : current >= start || current < end;
  if (!inside) return undefined;
  const endToday = startOfDay(now) + end * MINUTE;
  return new Date(endToday > now.getTime() ? endToday : endToday + DAY);
}

/**
 * The first send time of the user's summary strictly after `now`: daily at `time`, weekly on
 * Monday at `time`, monthly on the 1st at `time` (all UTC).
 */
export function nextSummaryTime(mode: Digest, time: string, now: Date): Date {
  const at = minutesOf(time) * MINUTE;
  const today = startOfDay(now);
  if (mode === 'daily') {
    const candidate = today + at;
    return new Date(candidate > now.getTime() ? candidate : candidate + DAY);
  }
  if (mode === 'weekly') {
    const daysToMonday = (8 - now.getUTCDay()) % 7;
    const candidate = today + daysToMonday * DAY + at;
    return new Date(candidate > now.getTime() ? candidate : candidate + 7 * DAY);
  }
  const firstOfMonth = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1) + at;
  return new Date(
    firstOfMonth > now.getTime() ? firstOfMonth : Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1) + at,
  );
}
