import { compare, type Comparison } from './harness';
import type { BenchContext } from './context';
import { seedInbox } from './seed';
import { listInbox, markAllRead } from '../shared/notifications/inboxService';
import type { Sql } from '../shared/db/client';

const ENTRIES = 10_000;
const ITERATIONS = 200;
const WARMUP = 10;
const READ_ALL_ITERATIONS = 10;
const READ_ALL_WARMUP = 1;

/** The bare page query the inbox's first page is compared with (the federation run reuses it). */
export const bareInboxPage = (sql: Sql, userId: string) => sql`
  select id, title, body, tone, created_at, read_at
  from notification where user_id = ${userId}
  order by created_at desc, seq desc limit 51`;

/** `entries` unread inbox entries for each user (see seedInbox). */
async function seedInboxes(sql: Sql, users: string[], entries: number): Promise<void> {
  for (const userId of users) await seedInbox(sql, userId, entries);
}

/**
 * The first inbox page (limit 50) of a user with 10,000 entries, through the service (one
 * statement: the page query with the trigger-maintained unread counter joined in, plus the record
 * mapping and the cursor), against the bare page query.
 * Then mark-all-read on 10,000 unread entries: the service's one UPDATE against the bare UPDATE.
 *
 * The seed inserts the entries directly, not through notify, so an inbox holds 10,000 entries,
 * ten times INBOX_CAP: it measures the list at a scale beyond what the cap allows today, so the
 * figure holds even if the cap is raised.
 */
export default async function notificationsInbox({ sql }: BenchContext): Promise<Comparison[]> {
  const userId = 'bench-user';
  const neighbours = Array.from({ length: 20 }, (_, i) => `bench-neighbour-${i}`);
  await seedInboxes(sql, [userId], ENTRIES);
  await seedInboxes(sql, neighbours, 1_000);
  await sql`vacuum analyze notification`;

  const firstPage = await compare({
    title: `Inbox first page (limit 50) for a user with ${ENTRIES.toLocaleString('en')} entries`,
    baseline: {
      name: 'bare SQL: select ... where user_id = $1 order by created_at desc, seq desc limit 51',
      run: () => bareInboxPage(sql, userId),
    },
    subject: {
      name: 'listInbox (page + unreadCount + mapping + cursor)',
      run: () => listInbox(sql, userId, { limit: 50, unreadOnly: false }),
    },
    iterations: ITERATIONS,
    warmup: WARMUP,
    target: 1.3,
  });

  // Each run needs a fresh inbox of unread entries: one user per run and side.
  const runs = READ_ALL_ITERATIONS + READ_ALL_WARMUP;
  const baselineUsers = Array.from({ length: runs }, (_, i) => `bench-read-all-baseline-${i}`);
  const subjectUsers = Array.from({ length: runs }, (_, i) => `bench-read-all-subject-${i}`);
  await seedInboxes(sql, [...baselineUsers, ...subjectUsers], ENTRIES);
  await sql`vacuum analyze notification`;
  let baselineRun = 0;
  let subjectRun = 0;
  const readAll = await compare({
    title: `Mark all read on ${ENTRIES.toLocaleString('en')} unread entries (one UPDATE statement)`,
    baseline: {
      name: 'bare SQL: update notification set read_at = now() where user_id = $1 and read_at is null',
      run: () => sql`update notification set read_at = now() where user_id = ${baselineUsers[baselineRun++]!} and read_at is null`,
    },
    subject: {
      name: 'markAllRead',
      run: async () => {
        const changed = await markAllRead(sql, subjectUsers[subjectRun++]!);
        if (changed !== ENTRIES) throw new Error(`markAllRead changed ${changed} entries, expected ${ENTRIES}`);
      },
    },
    iterations: READ_ALL_ITERATIONS,
    warmup: READ_ALL_WARMUP,
  });

  return [firstPage, readAll];
}
