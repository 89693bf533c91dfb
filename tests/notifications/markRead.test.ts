import { randomUUID } from 'node:crypto';
import { getSql } from '../../shared/db/client';
import { markRead } from '../../shared/notifications/inboxService';
import { notify } from '../../shared/notifications/notify';

const newUser = () => `user-${randomUUID()}`;

async function readAtOf(id: string): Promise<string | null> {
  // As text: a JS Date would drop the microseconds that tell two read times apart.
  const [row] = await getSql()<
    { readAt: string | null }[]
  >`select (read_at at time zone 'UTC')::text as "readAt" from notification where id = ${id}`;
  return row!.readAt;
}

async function entryOf(userId: string): Promise<string> {
  return (
    await getSql().begin((tx) => notify(tx, { userId, title: 'Read me', tone: 'info', kind: 'member', source: 'test', channels: [] }))
  ).id;
}

describe('mark one read keeps the first read time', () => {
  it('leaves read_at unchanged when read twice', async () => {
    const userId = newUser();
    const id = await entryOf(userId);
    await markRead(getSql(), userId, id);
    // Dated back rather than waited for: a second read time would surely differ from this one.
    await getSql()`update notification set read_at = read_at - interval '1 hour' where id = ${id}`;
    const first = await readAtOf(id);
    expect(first).not.toBeNull();
    await markRead(getSql(), userId, id);
    expect(await readAtOf(id)).toBe(first);
  });

  it('does not overwrite a read time committed by a transaction it waited for', async () => {
    const userId = newUser();
    const id = await entryOf(userId);
    let racing: Promise<void> | undefined;
    await getSql().begin(async (tx) => {
      // Holds the row lock with a read time of its own; the racing call sees the entry unread
      // in its snapshot and waits for the lock.
      await tx`update notification set read_at = '2026-01-01T00:00:00Z' where id = ${id}`;
      racing = markRead(getSql(), userId, id);
      for (let attempt = 0; attempt < 200; attempt += 1) {
        const [row] = await getSql()<{ waiting: boolean }[]>`
          select exists (
            select 1 from pg_stat_activity
            where wait_event_type = 'Lock' and query like '%update notification set read_at = now()%'
              and datname = current_database()
          ) as waiting`;
        if (row!.waiting) break;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    });
    await racing;
    expect(await readAtOf(id)).toBe('2026-01-01 00:00:00');
  });
});
