import { randomUUID } from 'node:crypto';
import { connect, getSql, type Sql } from '../../shared/db/client';
import { migrate } from '../../shared/db/migrate';
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
      ids.push(
        (await sql.begin((tx) => notify(tx, { userId, title: `N${i}`, tone: 'info', kind: 'member', source: 'test', channels: [] }))).id,
      );
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

describe('the unread counter under TRUNCATE and bulk statements', () => {
  // TRUNCATE takes the whole table, so it runs in a database of its own: the other test files
  // share the run's database in parallel.
  let admin: Sql;
  let sql: Sql;
  const database = `notif_truncate_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  beforeAll(async () => {
    admin = connect({ url: process.env['DATABASE_URL']!, max: 1 });
    await admin.unsafe(`create database ${database}`);
    const url = new URL(process.env['DATABASE_URL']!);
    url.pathname = `/${database}`;
    sql = connect({ url: url.toString(), max: 6 });
    await migrate(sql);
  });
  afterAll(async () => {
    await sql.end();
    await admin.unsafe(`drop database if exists ${database} with (force)`);
    await admin.end();
  });

  it('empties the counter when the inbox table is truncated', async () => {
    await sql`
      insert into notification (user_id, title, tone, kind, source)
      select 'user-' || (n % 3), 'Bulk ' || n, 'info', 'member', 'test' from generate_series(1, 9) as n`;
    expect(await countUnread(sql, 'user-1')).toBe(3);
    // The delivery log refers to both tables, so a truncate of the inbox takes it along.
    await sql`truncate notification, notification_outbox, notification_delivery_log`;
    expect(await sql`select * from notification_unread_count`).toEqual([]);
    await sql`insert into notification (user_id, title, tone, kind, source) values ('user-1', 'After', 'info', 'member', 'test')`;
    expect(await countUnread(sql, 'user-1')).toBe(1);
  });

  it('stays exact, without deadlocks, when bulk statements over many users run concurrently', async () => {
    const users = Array.from({ length: 40 }, (_, i) => `bulk-${String(i).padStart(2, '0')}`);
    for (let round = 0; round < 10; round += 1) {
      await sql`
        insert into notification (user_id, title, tone, kind, source)
        select u, t, 'info', 'member', 'test' from unnest(${users}::text[]) as u, unnest(array['A', 'B', 'C']) as t`;
      // Disjoint inbox rows, the same 40 counter rows, visited in opposite user orders: only the
      // ordered counter upserts keep these statements from waiting on each other in a cycle.
      await Promise.all([
        sql`delete from notification where ctid in (select ctid from notification where user_id like 'bulk-%' and title = 'A' order by user_id asc)`,
        sql`delete from notification where ctid in (select ctid from notification where user_id like 'bulk-%' and title = 'B' order by user_id desc)`,
        sql`update notification set read_at = now() where user_id like 'bulk-%' and title = 'C' and read_at is null`,
        sql`
          insert into notification (user_id, title, tone, kind, source)
          select u, 'D', 'info', 'member', 'test' from unnest(${users}::text[]) as u`,
        sql`
          insert into notification (user_id, title, tone, kind, source)
          select u, 'E', 'info', 'member', 'test' from unnest(${[...users].reverse()}::text[]) as u`,
      ]);
    }
    const drift = await sql`
      select u.user_id from (select distinct user_id from notification where user_id like 'bulk-%') as u
      where coalesce((select unread from notification_unread_count c where c.user_id = u.user_id), 0)
         <> (select count(*) from notification n where n.user_id = u.user_id and n.read_at is null)`;
    expect(drift).toEqual([]);
  });
});
