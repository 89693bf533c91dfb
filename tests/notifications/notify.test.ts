import { randomUUID } from 'node:crypto';
import { getSql } from '../../shared/db/client';
import { saveContact } from '../../shared/notifications/contactRepository';
import { INBOX_CAP, INBOX_LOCK_NAMESPACE, notify, type NotifyInput } from '../../shared/notifications/notify';
import { cancelPendingDeliveries } from '../../shared/notifications/outbox/outboxRepository';
import { defaultPreferences, mergePreferences, type NotificationPreferencesPatch } from '../../shared/notifications/preferences';
import { savePreferences } from '../../shared/notifications/preferencesRepository';
import { countUnread, insertInboxEntry } from '../../shared/notifications/inboxRepository';
import { clearInbox, markAllRead } from '../../shared/notifications/inboxService';

const newUser = () => `user-${randomUUID()}`;
const NOW = new Date('2026-11-18T23:30:00.000Z');

async function withPreferences(patch: NotificationPreferencesPatch, timeZone?: string): Promise<string> {
  const userId = newUser();
  await savePreferences(getSql(), userId, mergePreferences(defaultPreferences(), patch), timeZone);
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

/** The trigger-maintained counter must equal a real count of unread rows. */
async function expectCounterExact(userId: string): Promise<void> {
  const [row] = await getSql()<{ count: number }[]>`
    select count(*) as count from notification where user_id = ${userId} and read_at is null`;
  expect(await countUnread(getSql(), userId)).toBe(row!.count);
}

/** Resolves once some session waits for the user's inbox lock. */
async function waitForAdvisoryWaiter(userId: string): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const [row] = await getSql()<{ waiting: boolean }[]>`
      select exists (
        select 1 from pg_locks
        where locktype = 'advisory' and not granted and classid = ${INBOX_LOCK_NAMESPACE}::oid
          and objid::bigint = (hashtext(${userId})::bigint + 4294967296) % 4294967296
      ) as waiting`;
    if (row!.waiting) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('no producer waited for the lock');
}

async function inboxCount(userId: string): Promise<number> {
  const [row] = await getSql()<{ count: number }[]>`select count(*) as count from notification where user_id = ${userId}`;
  return row!.count;
}

describe('notify (the producer function)', () => {
  it('writes the inbox entry and queues email and push for a user with default preferences and a confirmed address', async () => {
    const userId = newUser();
    await saveContact(getSql(), userId, { email: `${userId}@example.org`, language: 'de' });
    const result = await getSql().begin((tx) => notify(tx, input(userId), NOW));
    expect(await inboxCount(userId)).toBe(1);
    expect(await outboxOf(userId)).toEqual([
      { channel: 'email', deliverAfter: NOW, digest: null, status: 'pending', notificationId: result.id },
      { channel: 'push', deliverAfter: NOW, digest: null, status: 'pending', notificationId: result.id },
    ]);
  });

  it('queues no email for a user who never chose and has no confirmed address: email starts off', async () => {
    const userId = newUser();
    const result = await getSql().begin((tx) => notify(tx, input(userId), NOW));
    expect(await outboxOf(userId)).toEqual([
      { channel: 'push', deliverAfter: NOW, digest: null, status: 'pending', notificationId: result.id },
    ]);
  });

  it('defers push to the end of quiet hours crossing midnight, email unaffected (stored time zone UTC)', async () => {
    const userId = await withPreferences({ dnd: { enabled: true, from: '22:00', to: '07:00' } }, 'UTC');
    await getSql().begin((tx) => notify(tx, input(userId), NOW));
    expect((await outboxOf(userId)).map((row) => [row.channel, row.deliverAfter.toISOString()])).toEqual([
      ['email', NOW.toISOString()],
      ['push', '2026-11-19T07:00:00.000Z'],
    ]);
  });

  it('reads quiet hours in Europe/Berlin for a user who never chose a time zone', async () => {
    // 23:30Z is 00:30 CET: inside 22:00–07:00 local, which ends at 06:00Z.
    const userId = await withPreferences({ dnd: { enabled: true, from: '22:00', to: '07:00' } });
    await getSql().begin((tx) => notify(tx, input(userId), NOW));
    expect((await outboxOf(userId)).map((row) => [row.channel, row.deliverAfter.toISOString()])).toEqual([
      ['email', NOW.toISOString()],
      ['push', '2026-11-19T06:00:00.000Z'],
    ]);
  });

  it('sends a reminder push now when the quiet hours would hold it past expiresAt', async () => {
    const userId = await withPreferences({ dnd: { enabled: true, from: '22:00', to: '07:00' } }, 'UTC');
    const expiresAt = new Date('2026-11-19T00:30:00.000Z');
    await getSql().begin((tx) =>
      notify(tx, input(userId, { kind: 'reminder', reminderLead: 'hour1', category: undefined, expiresAt }), NOW),
    );
    expect((await outboxOf(userId)).map((row) => [row.channel, row.deliverAfter.toISOString()])).toEqual([['push', NOW.toISOString()]]);
  });

  it('queues no email when the category is off, and still writes the inbox entry', async () => {
    const userId = await withPreferences({ email: { categories: { training: false } }, push: { enabled: false } });
    const result = await getSql().begin((tx) => notify(tx, input(userId), NOW));
    expect(result.deliveries).toEqual([]);
    expect(await outboxOf(userId)).toEqual([]);
    expect(await inboxCount(userId)).toBe(1);
  });

  it('queues email as a digest entry in summary mode', async () => {
    const userId = await withPreferences({ summary: { mode: 'daily', time: '06:00' }, push: { enabled: false } }, 'UTC');
    await getSql().begin((tx) => notify(tx, input(userId, { kind: 'report', category: undefined }), NOW));
    expect((await outboxOf(userId)).map((row) => [row.channel, row.deliverAfter.toISOString(), row.digest])).toEqual([
      ['email', '2026-11-19T06:00:00.000Z', 'daily'],
    ]);
  });

  it('withdraws pending deliveries by cancel key', async () => {
    const userId = newUser();
    const cancelKey = `reminder:${randomUUID()}`;
    await getSql().begin((tx) => notify(tx, input(userId, { kind: 'reminder', reminderLead: 'hour1', cancelKey }), NOW));
    expect(await cancelPendingDeliveries(getSql(), cancelKey)).toBe(1);
    expect((await outboxOf(userId)).map((row) => row.status)).toEqual(['cancelled']);
    expect(await cancelPendingDeliveries(getSql(), cancelKey)).toBe(0);
  });

  it('keeps a critical delivery, with its snapshot, when the user clears the inbox', async () => {
    const userId = await withPreferences({ dnd: { enabled: true, from: '00:00', to: '23:59' } });
    const { id } = await getSql().begin((tx) =>
      notify(
        tx,
        input(userId, { kind: 'billing', category: undefined, critical: true, title: 'Card declined', body: 'Update it', tone: 'error' }),
        NOW,
      ),
    );
    expect(await clearInbox(getSql(), userId)).toBe(1);
    const rows = await getSql()`
      select channel, status, notification_id as "notificationId", title, body, tone
      from notification_outbox where user_id = ${userId} order by channel`;
    expect(id).toEqual(expect.any(String));
    expect(rows).toEqual([
      { channel: 'email', status: 'pending', notificationId: null, title: 'Card declined', body: 'Update it', tone: 'error' },
      { channel: 'push', status: 'pending', notificationId: null, title: 'Card declined', body: 'Update it', tone: 'error' },
    ]);
  });

  it('writes within the caller’s transaction: a rollback there leaves no entry and no delivery', async () => {
    const userId = newUser();
    await expect(
      getSql().begin(async (tx) => {
        await notify(tx, input(userId), NOW);
        throw new Error('the caller’s own write failed');
      }),
    ).rejects.toThrow('the caller’s own write failed');
    expect(await inboxCount(userId)).toBe(0);
    expect(await outboxOf(userId)).toEqual([]);
  });

  it('keeps a queued digest when the inbox cap prunes its entry', async () => {
    const userId = await withPreferences({ summary: { mode: 'weekly' }, push: { enabled: false } });
    await getSql().begin((tx) => notify(tx, input(userId, { kind: 'report', category: undefined, title: 'Weekly numbers' }), NOW));
    await getSql()`
      insert into notification (user_id, title, tone, kind, source, created_at)
      select ${userId}, 'Newer ' || n, 'info', 'member', 'test', now() + make_interval(secs => n)
      from generate_series(1, ${INBOX_CAP - 1}) as n`;
    const result = await getSql().begin((tx) => notify(tx, input(userId, { channels: [] }), NOW));
    expect(result.pruned).toBe(1);
    const rows = await getSql()`
      select status, digest, title, notification_id as "notificationId" from notification_outbox where user_id = ${userId}`;
    expect(rows).toEqual([{ status: 'pending', digest: 'weekly', title: 'Weekly numbers', notificationId: null }]);
    await expectCounterExact(userId);
  });

  it('stamps the entry with the clock time of its insert, not the transaction start', async () => {
    const userId = newUser();
    // Compared in PostgreSQL at microsecond resolution: now() is the transaction's start, fixed
    // for the whole transaction, so only a clock time read at the insert comes out later.
    const { laterThanStart, sameAsStart } = await getSql().begin(async (tx) => {
      const { id } = await insertInboxEntry(tx, { userId, title: 'probe', tone: 'info', kind: 'member', source: 'test' });
      const [row]: [{ laterThanStart: boolean; sameAsStart: boolean }?] = await tx`
        select created_at > now() as "laterThanStart", created_at = now() as "sameAsStart" from notification where id = ${id}`;
      return row ?? { laterThanStart: false, sameAsStart: true };
    });
    expect(sameAsStart).toBe(false);
    expect(laterThanStart).toBe(true);
  });

  it('lists an entry whose producer waited for the user lock above the entry written meanwhile', async () => {
    const userId = newUser();
    let waiting: Promise<{ id: string }> | undefined;
    const meanwhile = await getSql().begin(async (tx) => {
      await tx`select pg_advisory_xact_lock(${INBOX_LOCK_NAMESPACE}, hashtext(${userId}))`;
      // This producer's transaction starts now and then waits for the lock held here.
      waiting = getSql().begin((tx) => notify(tx, input(userId, { channels: [], title: 'waited' }), NOW));
      await waitForAdvisoryWaiter(userId);
      // As a producer whose transaction began after the waiting one's: stamped later than its start.
      const [row] = await tx<{ id: string }[]>`
        insert into notification (user_id, title, tone, kind, source, created_at)
        values (${userId}, 'meanwhile', 'info', 'member', 'test', clock_timestamp()) returning id`;
      return row!;
    });
    const waited = await waiting!;
    const rows = await getSql()<{ id: string }[]>`
      select id from notification where user_id = ${userId} order by created_at desc, seq desc`;
    expect(rows.map((row) => row.id)).toEqual([waited.id, meanwhile.id]);
  });

  it(`keeps the newest ${INBOX_CAP} entries`, async () => {
    const userId = newUser();
    await getSql()`
      insert into notification (user_id, title, tone, kind, source, created_at)
      select ${userId}, 'Old ' || n, 'info', 'member', 'test', now() - make_interval(mins => ${INBOX_CAP + 1} - n)
      from generate_series(1, ${INBOX_CAP}) as n`;
    const result = await getSql().begin((tx) => notify(tx, input(userId, { channels: [] }), NOW));
    expect(result.pruned).toBe(1);
    expect(await inboxCount(userId)).toBe(INBOX_CAP);
    const titles = await getSql()<{ title: string }[]>`
      select title from notification where user_id = ${userId} order by created_at asc, seq asc limit 1`;
    expect(titles[0]!.title).toBe('Old 2');
    expect((await getSql()`select 1 from notification where id = ${result.id}`).length).toBe(1);
    await expectCounterExact(userId);
  });

  it('holds the cap under concurrent producers', async () => {
    const userId = newUser();
    await getSql()`
      insert into notification (user_id, title, tone, kind, source)
      select ${userId}, 'Old ' || n, 'info', 'member', 'test' from generate_series(1, ${INBOX_CAP - 2}) as n`;
    await Promise.all(Array.from({ length: 6 }, () => getSql().begin((tx) => notify(tx, input(userId, { channels: [] }), NOW))));
    expect(await inboxCount(userId)).toBe(INBOX_CAP);
    await expectCounterExact(userId);
  });

  it('orders concurrent producers by commit: the later commit is the newer entry', async () => {
    const userId = newUser();
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => getSql().begin((tx) => notify(tx, input(userId, { channels: [], title: `N${i}` }), NOW))),
    );
    expect(results).toHaveLength(8);
    // seq is drawn inside the locked section too, so (created_at) order must equal seq order.
    const rows = await getSql()<{ seq: number }[]>`
      select seq from notification where user_id = ${userId} order by created_at, seq`;
    const seqs = rows.map((row) => row.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
  });

  it('keeps the unread counter exact under concurrent notify, markAllRead and clearInbox', async () => {
    const userId = newUser();
    await Promise.all(Array.from({ length: 5 }, () => getSql().begin((tx) => notify(tx, input(userId, { channels: [] }), NOW))));
    await Promise.all([
      ...Array.from({ length: 6 }, () => getSql().begin((tx) => notify(tx, input(userId, { channels: [] }), NOW))),
      markAllRead(getSql(), userId),
      clearInbox(getSql(), userId),
      markAllRead(getSql(), userId),
      ...Array.from({ length: 4 }, () => getSql().begin((tx) => notify(tx, input(userId, { channels: [] }), NOW))),
    ]);
    await expectCounterExact(userId);
    await clearInbox(getSql(), userId);
    expect(await countUnread(getSql(), userId)).toBe(0);
  });
});
