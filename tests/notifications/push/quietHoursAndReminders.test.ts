import { getSql } from '../../../shared/db/client';
import type { NotifyInput } from '../../../shared/notifications/notify';
import type { NotificationPreferencesPatch } from '../../../shared/notifications/preferences';
import { deliverDuePushes } from '../../../shared/notifications/push/deliverPushes';
import { registerPush } from '../../../shared/notifications/push/pushRegistrations';
import { newMember, notifyAt } from '../support';
import { usePushWorldOf } from './support';

// Every row of this file is due in 1994 (Europe/Berlin changed to summer time on 27 March and back
// on 25 September that year), and the worker runs with 1994 clocks, so it claims only these rows.
const world = usePushWorldOf(1994);

const QUIET: NotificationPreferencesPatch = { dnd: { enabled: true, from: '22:00', to: '07:00' } };

/** A member in Berlin with a browser subscribed at the Web Push fake. */
async function member(patch: NotificationPreferencesPatch) {
  const userId = await newMember(patch);
  const subscription = world().browsers.subscribe(world().vapid.publicKey);
  await registerPush(getSql(), world().channels, userId, { platform: 'webpush', subscription });
  return { userId, received: () => world().browsers.pushes.filter((push) => subscription.endpoint.endsWith(push.subscriptionId)) };
}

const send = (userId: string, now: Date, extra: Partial<NotifyInput> = {}) =>
  notifyAt(userId, { body: undefined, channels: ['push'], ...extra }, now);

const deliverAt = (iso: string) => deliverDuePushes(getSql(), { channels: world().channels, now: () => new Date(iso) });
const secondBefore = (iso: string) => new Date(new Date(iso).getTime() - 1000).toISOString();

describe('quiet hours hold push until they end, end to end through the Web Push fake', () => {
  it.each([
    // 23:15 CEST is 21:15Z; the window ends at 07:00 CEST, 05:00Z.
    ['a summer night', '1994-06-15T21:15:00.000Z', '1994-06-16T05:00:00.000Z'],
    // 06:59 CEST is still inside: held one minute, to 07:00 the same morning.
    ['just before the end', '1994-06-16T04:59:00.000Z', '1994-06-16T05:00:00.000Z'],
    // The clocks go back on 25 September (03:00 CEST → 02:00 CET): 22:30 CEST (20:30Z) waits for 07:00 CET (06:00Z).
    ['the night the clocks go back', '1994-09-24T20:30:00.000Z', '1994-09-25T06:00:00.000Z'],
    // The clocks go forward on 27 March (02:00 CET → 03:00 CEST): 22:30 CET (21:30Z) waits for 07:00 CEST (05:00Z).
    ['the night the clocks go forward', '1994-03-26T21:30:00.000Z', '1994-03-27T05:00:00.000Z'],
  ])('%s: nothing before the window ends, the push at its end', async (_name, sentAt, windowEnds) => {
    const { userId, received } = await member(QUIET);
    await send(userId, new Date(sentAt));
    await deliverAt(secondBefore(windowEnds));
    expect(received()).toHaveLength(0);
    expect(await deliverAt(windowEnds)).toMatchObject({ sent: 1 });
    expect(received()).toHaveLength(1);
  });

  it('outside the window (07:00 itself) the push goes at once', async () => {
    const { userId, received } = await member(QUIET);
    await send(userId, new Date('1994-06-16T05:00:00.000Z'));
    await deliverAt('1994-06-16T05:00:00.000Z');
    expect(received()).toHaveLength(1);
  });

  it('a critical notice ignores the quiet hours', async () => {
    const { userId, received } = await member(QUIET);
    await send(userId, new Date('1994-06-15T21:15:00.000Z'), { kind: 'billing', critical: true });
    await deliverAt('1994-06-15T21:15:00.000Z');
    expect(received()).toHaveLength(1);
  });

  it('a time-bound reminder whose event starts before the window ends goes at once, one that starts after waits', async () => {
    const { userId, received } = await member(QUIET);
    const night = new Date('1994-06-15T21:15:00.000Z');
    await send(userId, night, { kind: 'reminder', reminderLead: 'hour1', expiresAt: new Date('1994-06-15T22:15:00.000Z'), title: 'Soon' });
    await send(userId, night, { kind: 'reminder', reminderLead: 'hour1', expiresAt: new Date('1994-06-16T09:00:00.000Z'), title: 'Later' });
    await deliverAt(night.toISOString());
    expect(received().map((push) => (push.payload as { title: string }).title)).toEqual(['Soon']);
    await deliverAt('1994-06-16T05:00:00.000Z');
    expect(received().map((push) => (push.payload as { title: string }).title)).toEqual(['Soon', 'Later']);
  });
});

describe('each reminder lead and the push switch decide what is pushed, end to end', () => {
  const NOON = new Date('1994-07-06T10:00:00.000Z');
  it.each([
    { name: '1 hour (on by default)', patch: {}, lead: 'hour1' as const, pushes: 1 },
    { name: '15 minutes (off by default)', patch: {}, lead: 'minutes15' as const, pushes: 0 },
    { name: '15 minutes switched on', patch: { reminders: { minutes15: true } }, lead: 'minutes15' as const, pushes: 1 },
    { name: '24 hours (off by default)', patch: {}, lead: 'hours24' as const, pushes: 0 },
    { name: '24 hours switched on', patch: { reminders: { hours24: true } }, lead: 'hours24' as const, pushes: 1 },
    { name: '1 hour switched off', patch: { reminders: { hour1: false } }, lead: 'hour1' as const, pushes: 0 },
    { name: 'reminders not by push', patch: { reminders: { viaPush: false } }, lead: 'hour1' as const, pushes: 0 },
    { name: 'push switched off', patch: { push: { enabled: false } }, lead: 'hour1' as const, pushes: 0 },
  ])('$name: $pushes push(es)', async ({ patch, lead, pushes }) => {
    const { userId, received } = await member(patch);
    await send(userId, NOON, { kind: 'reminder', reminderLead: lead, expiresAt: new Date(NOON.getTime() + 3_600_000) });
    await deliverAt(NOON.toISOString());
    expect(received()).toHaveLength(pushes);
  });
});
