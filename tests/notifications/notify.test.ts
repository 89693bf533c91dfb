import { randomUUID } from 'node:crypto';
import { getSql } from '../../shared/db/client';
import { INBOX_CAP, notify, type NotifyInput } from '../../shared/notifications/notify';
import { cancelPendingDeliveries } from '../../shared/notifications/outboxRepository';
import { defaultPreferences, mergePreferences, type NotificationPreferencesPatch } from '../../shared/notifications/preferences';
import { savePreferences } from '../../shared/notifications/preferencesRepository';

const newUser = () => `user-${randomUUID()}`;
const NOW = new Date('2026-11-18T23:30:00.000Z');

async function withPreferences(patch: NotificationPreferencesPatch): Promise<string> {
  const userId = newUser();
  await savePreferences(getSql(), userId, mergePreferences(defaultPreferences(), patch));
  return userId;
}

function input(userId: string, extra: Partial<NotifyInput> = {}): NotifyInput {
  return { userId, title: 'Training moved', tone: 'info', kind: 'event', category: 'training', source: 'scheduler', ...extra };
}

async function outboxOf(userId: string) {
  return getSql()<{ channel: string; deliverAfter: Date; digest: string | null; status: string; notificationId: string }[]>`
    select channel, deliver_after as "deliverAfter", digest, status, notification_id as "notificationId"
    from notification_outbox where user_id = ${userId} order by channel`;
}

async function inboxCount(userId: string): Promise<number> {
  const [row] = await getSql()<{ count: number }[]>`select count(*) as count from notification where user_id = ${userId}`;
  return row!.count;
}

describe('notify (the producer function)', () => {
  it('writes the inbox entry and queues email and push for a user with default preferences', async () => {
    const userId = newUser();
    const result = await notify(getSql(), input(userId), NOW);
    expect(await inboxCount(userId)).toBe(1);
    expect(await outboxOf(userId)).toEqual([
      { channel: 'email', deliverAfter: NOW, digest: null, status: 'pending', notificationId: result.id },
      { channel: 'push', deliverAfter: NOW, digest: null, status: 'pending', notificationId: result.id },
    ]);
  });

  it('defers push to the end of quiet hours crossing midnight, email unaffected', async () => {
    const userId = await withPreferences({ dnd: { enabled: true, from: '22:00', to: '07:00' } });
    await notify(getSql(), input(userId), NOW);
    expect((await outboxOf(userId)).map((row) => [row.channel, row.deliverAfter.toISOString()])).toEqual([
      ['email', NOW.toISOString()],
      ['push', '2026-11-19T07:00:00.000Z'],
    ]);
  });

  it('queues no email when the category is off, and still writes the inbox entry', async () => {
    const userId = await withPreferences({ email: { categories: { training: false } }, push: { enabled: false } });
    const result = await notify(getSql(), input(userId), NOW);
    expect(result.deliveries).toEqual([]);
    expect(await outboxOf(userId)).toEqual([]);
    expect(await inboxCount(userId)).toBe(1);
  });

  it('queues email as a digest entry in summary mode', async () => {
    const userId = await withPreferences({ summary: { mode: 'daily', time: '06:00' }, push: { enabled: false } });
    await notify(getSql(), input(userId, { kind: 'report', category: undefined }), NOW);
    expect((await outboxOf(userId)).map((row) => [row.channel, row.deliverAfter.toISOString(), row.digest])).toEqual([
      ['email', '2026-11-19T06:00:00.000Z', 'daily'],
    ]);
  });

  it('withdraws pending deliveries by cancel key', async () => {
    const userId = newUser();
    const cancelKey = `reminder:${randomUUID()}`;
    await notify(getSql(), input(userId, { kind: 'reminder', reminderLead: 'hour1', cancelKey }), NOW);
    expect(await cancelPendingDeliveries(getSql(), cancelKey)).toBe(1);
    expect((await outboxOf(userId)).map((row) => row.status)).toEqual(['cancelled']);
    expect(await cancelPendingDeliveries(getSql(), cancelKey)).toBe(0);
  });

  it('drops the deliveries of an entry the user deletes', async () => {
    const userId = newUser();
    const { id } = await notify(getSql(), input(userId), NOW);
    await getSql()`delete from notification where id = ${id}`;
    expect(await outboxOf(userId)).toEqual([]);
  });

  it(`keeps the newest ${INBOX_CAP} entries`, async () => {
    const userId = newUser();
    await getSql()`
      insert into notification (user_id, title, tone, kind, source, created_at)
      select ${userId}, 'Old ' || n, 'info', 'member', 'test', now() - make_interval(mins => ${INBOX_CAP + 1} - n)
      from generate_series(1, ${INBOX_CAP}) as n`;
    const result = await notify(getSql(), input(userId, { channels: [] }), NOW);
    expect(result.pruned).toBe(1);
    expect(await inboxCount(userId)).toBe(INBOX_CAP);
    const titles = await getSql()<{ title: string }[]>`
      select title from notification where user_id = ${userId} order by created_at asc, seq asc limit 1`;
    expect(titles[0]!.title).toBe('Old 2');
    expect((await getSql()`select 1 from notification where id = ${result.id}`).length).toBe(1);
  });

  it('holds the cap under concurrent producers', async () => {
    const userId = newUser();
    await getSql()`
      insert into notification (user_id, title, tone, kind, source)
      select ${userId}, 'Old ' || n, 'info', 'member', 'test' from generate_series(1, ${INBOX_CAP - 2}) as n`;
    await Promise.all(Array.from({ length: 6 }, () => notify(getSql(), input(userId, { channels: [] }), NOW)));
    expect(await inboxCount(userId)).toBe(INBOX_CAP);
  });
});
