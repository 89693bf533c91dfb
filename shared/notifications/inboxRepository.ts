import type { Queryable } from '../db/client';
import type { InboxPosition } from './cursor';
import type { TextParameters } from '../i18n/catalogue';
import type { Language } from '../i18n/language';
import type { Message } from '../i18n/message';
import type { Category, Tone } from './record';

/** One inbox entry as stored, with its keyset position. */
export interface InboxRow {
  id: string;
  title: string;
  body: string | null;
  tone: Tone;
  read: boolean;
  /** The catalogue message the entry was written from (null for older entries and fixed texts). */
  messageKey: string | null;
  messageParams: TextParameters | null;
  /** created_at as ISO 8601 UTC with microseconds (`2026-11-18T12:00:00.123456Z`): the date and the cursor. */
  position: string;
  seq: number;
}

export interface NewInboxEntry {
  userId: string;
  title: string;
  body?: string;
  message?: Message | null;
  tone: Tone;
  kind: string;
  category?: Category;
  source: string;
}

export interface PageRequest {
  /** Rows to read; the service asks for one more than it returns to know whether a next page exists. */
  rows: number;
  after?: InboxPosition;
  unreadOnly: boolean;
}

export interface InboxSlice {
  rows: InboxRow[];
  /** The user's total unread count, whatever the page and filter. */
  unread: number;
  /** The user's stored contact language, read in the same statement (null: none stored, or an empty page). */
  storedLanguage: Language | null;
}

type SliceRow = InboxRow & { unread: number; storedLanguage: Language | null };

/**
 * Newest first, strictly after `after` in (created_at, seq) order, together with the unread
 * counter and the user's stored language in the same round trip: every row carries them (one-time
 * subqueries, not per-row lookups; the language renders catalogue messages when the request names
 * none). The position goes in as text: a timestamptz parameter would pass through a JS Date
 * and lose its microseconds.
 *
 * One cached plan for every user and page size. With the user id and the row count as plain
 * parameters PostgreSQL planned the statement afresh on every call (about as long as running it):
 * a large inbox is a most-common value in the statistics, and its custom plan is priced below the
 * generic one, which also takes `limit $n` for a tenth of the rows. As one-time subqueries
 * `(select $n)` the two values are unknown to the planner in every plan, so it keeps the generic
 * one: an index range with a limit, the right plan whatever the user or page size.
 *
 * An empty page has no row to carry the counter. Without a cursor that means the user has no
 * entry (or, with the unread filter, no unread entry), and the counter, which the triggers keep
 * exact in the same transaction as the entries, is 0 in the statement's snapshot. After a cursor the entries before it may
 * still be unread: the counter is read on its own (rare: a cursor is only handed out when a
 * further entry existed).
 */
export async function selectInboxSlice(sql: Queryable, userId: string, page: PageRequest): Promise<InboxSlice> {
  const rows = await sql<SliceRow[]>`
    select id, title, body, tone, read_at is not null as read, seq, message_key as "messageKey", message_params as "messageParams",
           to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as position,
           coalesce((select unread from notification_unread_count where user_id = ${userId}), 0) as unread,
           (select language from user_contact where user_id = ${userId}) as "storedLanguage"
    from notification
    where user_id = (select ${userId}::text)
      ${page.unreadOnly ? sql`and read_at is null` : sql``}
      ${page.after ? sql`and (created_at, seq) < (${page.after.createdAt}::text::timestamptz, ${page.after.seq})` : sql``}
    order by created_at desc, seq desc
    limit (select ${page.rows}::int)`;
  const first = rows[0];
  if (first) return { rows, unread: first.unread, storedLanguage: first.storedLanguage };
  return { rows: [], unread: page.after ? await countUnread(sql, userId) : 0, storedLanguage: null };
}

/** How many of the user's entries are unread (the trigger-maintained counter, not a row count). */
export async function countUnread(sql: Queryable, userId: string): Promise<number> {
  const [row]: [{ unread: number }?] = await sql`
    select unread from notification_unread_count where user_id = ${userId}`;
  return row?.unread ?? 0;
}

/**
 * Inserts one entry and answers its id. created_at is the statement's wall-clock time, not the
 * column default now() (the transaction's start): notify takes the user's lock first and may
 * wait for it, and an entry stamped before that wait could commit after a newer-stamped one and
 * appear below entries a client has already seen.
 */
export async function insertInboxEntry(sql: Queryable, entry: NewInboxEntry): Promise<{ id: string; createdAt: Date }> {
  const [row]: [{ id: string; createdAt: Date }?] = await sql`
    insert into notification (user_id, title, body, tone, kind, category, source, message_key, message_params, created_at)
    values (${entry.userId}, ${entry.title}, ${entry.body ?? null}, ${entry.tone}, ${entry.kind}, ${entry.category ?? null}, ${entry.source},
            ${entry.message?.key ?? null}, ${entry.message ? sql.json(entry.message.params) : null}, clock_timestamp())
    returning id, created_at as "createdAt"`;
  if (!row) throw new Error('notification insert returned no row');
  return row;
}

/**
 * Marks one of the user's entries read; an entry already read keeps its first read time.
 * Answers false when the user has no entry with that id (absent, or someone else's).
 *
 * `read_at is null` sits in the UPDATE's own WHERE: when a concurrent call holds the row and
 * commits first, PostgreSQL re-checks exactly those conditions on the new row version and skips
 * it. (A condition from a CTE snapshot would still say "unread" and overwrite the first read
 * time.) Whether the entry exists is a separate read in the same statement, for the 404.
 */
export async function markEntryRead(sql: Queryable, userId: string, id: string): Promise<boolean> {
  // A data-modifying CTE runs whether or not the outer query reads it.
  const [row]: [{ found: boolean }?] = await sql`
    with updated as (
      update notification set read_at = now()
      where id = ${id} and user_id = ${userId} and read_at is null
    )
    select exists (select 1 from notification where id = ${id} and user_id = ${userId}) as found`;
  return row?.found ?? false;
}

/** Marks every unread entry of the user read in one statement; answers how many changed. */
export async function markAllEntriesRead(sql: Queryable, userId: string): Promise<number> {
  const result = await sql`update notification set read_at = now() where user_id = ${userId} and read_at is null`;
  return result.count;
}

/** Deletes one of the user's entries; false when the user has no entry with that id. */
export async function deleteEntry(sql: Queryable, userId: string, id: string): Promise<boolean> {
  const result = await sql`delete from notification where id = ${id} and user_id = ${userId}`;
  return result.count > 0;
}

/** Deletes every entry of the user in one statement; answers how many went. */
export async function deleteAllEntries(sql: Queryable, userId: string): Promise<number> {
  const result = await sql`delete from notification where user_id = ${userId}`;
  return result.count;
}

/** Deletes all but the user's newest `keep` entries, in one statement; answers how many went. */
export async function pruneToNewest(sql: Queryable, userId: string, keep: number): Promise<number> {
  if (keep < 1) return deleteAllEntries(sql, userId);
  const result = await sql`
    delete from notification
    where user_id = ${userId}
      and (created_at, seq) < (
        select created_at, seq from notification
        where user_id = ${userId}
        order by created_at desc, seq desc
        offset ${keep - 1} limit 1
      )`;
  return result.count;
}
