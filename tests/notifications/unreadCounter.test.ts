import { randomUUID } from 'node:crypto';
import { getSql } from '../../shared/db/client';
import { countUnread } from '../../shared/notifications/inboxRepository';
import { clearInbox, markAllRead, markRead, removeNotification } from '../../shared/notifications/inboxService';
import { notify } from '../../shared/notifications/notify';

async function countedRows(userId: string): Promise<number> {
  const [row] = await getSql()<{ count: number }[]>`
    select count(*) as count from notification where user_id = ${userId} and read_at is null`;
  return row!.count;
}

describe('the unread counter', () => {
  it('matches a row count after every kind of change', async () => {
    const sql = getSql();
    const userId = `user-${randomUUID()}`;
    const other = `user-${randomUUID()}`;
    const expectInSync = async (expected: number) => {
      expect(await countUnread(sql, userId)).toBe(expected);
      expect(await countedRows(userId)).toBe(expected);
    };

    await expectInSync(0);
    await sql`
      insert into notification (user_id, title, tone, kind, source)
      select case when n % 2 = 0 then ${userId} else ${other} end, 'Bulk ' || n, 'info', 'member', 'test'
      from generate_series(1, 20) as n`;
    await expectInSync(10);
    expect(await countUnread(sql, other)).toBe(10);

    const ids = [];
    for (let i = 0; i < 3; i += 1) {
      ids.push((await notify(sql, { userId, title: `N${i}`, tone: 'info', kind: 'member', source: 'test', channels: [] })).id);
    }
    await expectInSync(13);

    await markRead(sql, userId, ids[0]!);
    await markRead(sql, userId, ids[0]!);
    await expectInSync(12);

    await removeNotification(sql, userId, ids[0]!);
    await expectInSync(12);
    await removeNotification(sql, userId, ids[1]!);
    await expectInSync(11);

    await markAllRead(sql, userId);
    await expectInSync(0);
    await sql`update notification set read_at = null where user_id = ${userId} and title like 'Bulk%'`;
    await expectInSync(10);

    await clearInbox(sql, userId);
    await expectInSync(0);
    expect(await countUnread(sql, other)).toBe(10);
  });
});
