import { compare, type CompareOptions, type Comparison } from './harness';
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

/** The bare page query of an inbox whose entries carry catalogue messages: the message's key and parameters as well. */
const bareMessagePage = (sql: Sql, userId: string) => sql`
  select id, title, body, tone, created_at, read_at, message_key, message_params
  from notification where user_id = ${userId}
  order by created_at desc, seq desc limit 51`;

/**
 * `entries` entries written from catalogue messages, as the challenges and the freshness check write
 * them: by turns a result, an end reminder (a date in German time), a streak warning and a
 * freshness notice (an evening on the club's clock), each with the text stored when written.
 */
async function seedMessageInbox(sql: Sql, userId: string, entries: number): Promise<void> {
  await sql`
    insert into notification (user_id, title, body, tone, kind, category, source, created_at, message_key, message_params)
    select ${userId}, 'Entry ' || n, 'Body of entry ' || n, 'info', 'member', 'club', 'bench', now() - make_interval(mins => ${entries} - n),
           (array['challenges.result', 'challenges.endsSoon', 'challenges.streakAtRisk', 'freshness.stale'])[1 + n % 4],
           (array[
             jsonb_build_object('placement', 'winner', 'challenge', jsonb_build_object('de', 'Herbstpokal ' || n, 'en', 'Autumn cup ' || n), 'xp', 500),
             jsonb_build_object('challenge', jsonb_build_object('de', 'Herbstpokal ' || n, 'en', 'Autumn cup ' || n),
               'endsAt', to_char(timestamptz '2026-11-30 18:00Z' + make_interval(hours => n), 'YYYY-MM-DD"T"HH24:MI:SS"Z"')),
             jsonb_build_object('weeks', 1 + n % 12, 'freeze', 'available'),
             jsonb_build_object('club', 'Bench club', 'evening', to_char(timestamptz '2026-11-19 17:00Z' + make_interval(days => n), 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
               'timeZone', 'Europe/Berlin', 'planSource', 'stored', 'hint', 'box_offline')
           ])[1 + n % 4]
    from generate_series(1, ${entries}) as n`;
}

/** `entries` unread inbox entries for each user (see seedInbox). */
async function seedInboxes(sql: Sql, users: string[], entries: number): Promise<void> {
  for (const userId of users) await seedInbox(sql, userId, entries);
}

/**
 * The first inbox page (limit 50) of a user with 10,000 entries, through the service (one
 * statement: the page query with the trigger-maintained unread counter joined in, plus the record
 * mapping and the cursor), against the bare page query.
 * The same for an inbox whose entries were all written from catalogue messages, each rendered
 * in the reader's language as it is read, against the bare page query that reads the messages.
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

  /** `listInbox`'s first page of `user` against a bare query of the same page. */
  const firstPageOf = (user: string, title: string, subject: string, baseline: CompareOptions['baseline'], target?: number) =>
    compare({
      title,
      baseline,
      subject: { name: subject, run: () => listInbox(sql, user, { limit: 50, unreadOnly: false }) },
      iterations: ITERATIONS,
      warmup: WARMUP,
      target,
    });

  const firstPage = await firstPageOf(
    userId,
    `Inbox first page (limit 50) for a user with ${ENTRIES.toLocaleString('en')} entries`,
    'listInbox (page + unreadCount + mapping + cursor)',
    { name: 'bare SQL: select ... where user_id = $1 order by created_at desc, seq desc limit 51', run: () => bareInboxPage(sql, userId) },
    1.3,
  );

  // The same page where every entry was written from a catalogue message, rendered as it is read
  // in the reader's language (German: the user stored none, the request names none).
  const messageUser = 'bench-message-user';
  await seedMessageInbox(sql, messageUser, ENTRIES);
  await sql`vacuum analyze notification`;
  const rendered = await listInbox(sql, messageUser, { limit: 50, unreadOnly: false });
  const storedTexts = rendered.items.filter((item) => item.title.startsWith('Entry ')).length;
  const messagePage = await firstPageOf(
    messageUser,
    `Inbox first page (limit 50), ${ENTRIES.toLocaleString('en')} entries written from catalogue messages`,
    'listInbox (each entry rendered from its message)',
    { name: 'bare SQL: the page query with the message key and parameters of each entry', run: () => bareMessagePage(sql, messageUser) },
  );
  // Entries that fell back to their stored text would measure no rendering.
  if (storedTexts > 0) messagePage.failed = `${storedTexts} of ${rendered.items.length} entries showed their stored text`;

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

  return [firstPage, messagePage, readAll];
}
