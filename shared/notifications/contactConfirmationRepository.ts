import type { Queryable } from '../db/client';

export interface Confirmation {
  id: string;
  userId: string;
  /** null once the member removed their address: the link is over and its address forgotten. */
  email: string | null;
  tokenHash: Uint8Array;
  expiresAt: Date;
  usedAt: Date | null;
  supersededAt: Date | null;
}

const COLUMNS = `id, user_id as "userId", email, token_hash as "tokenHash", expires_at as "expiresAt",
  used_at as "usedAt", superseded_at as "supersededAt"`;

/** Ends every open link of the member: a newer one, or none, replaces them. */
export async function supersedeOpenConfirmations(sql: Queryable, userId: string): Promise<void> {
  await sql`
    update user_contact_confirmation set superseded_at = now()
    where user_id = ${userId} and used_at is null and superseded_at is null`;
}

/**
 * Forgets the member's links created before `before`, and with them the outbox rows and delivery
 * log of their emails: a link's address is personal data, kept no longer than the link can be answered.
 */
export async function forgetConfirmationsBefore(sql: Queryable, userId: string, before: Date): Promise<void> {
  await sql`delete from user_contact_confirmation where user_id = ${userId} and created_at < ${before}`;
}

/**
 * Ends every link of the member and forgets their addresses at once (the member removed their
 * address); the rows stay until forgetConfirmationsBefore, so they still count towards the daily limit.
 */
export async function redactConfirmations(sql: Queryable, userId: string): Promise<void> {
  await sql`
    update user_contact_confirmation set email = null, superseded_at = coalesce(superseded_at, now())
    where user_id = ${userId}`;
}

/** A new link's row: only the token's hash is stored. */
export async function insertConfirmation(
  sql: Queryable,
  confirmation: { id: string; userId: string; email: string; tokenHash: Buffer; createdAt: Date; expiresAt: Date },
): Promise<void> {
  await sql`
    insert into user_contact_confirmation (id, user_id, email, token_hash, created_at, expires_at)
    values (${confirmation.id}, ${confirmation.userId}, ${confirmation.email}, ${confirmation.tokenHash},
            ${confirmation.createdAt}, ${confirmation.expiresAt})`;
}

/** How many links the member was sent since `since`: the limit against mail sent to strangers. */
export async function countConfirmationsSince(sql: Queryable, userId: string, since: Date): Promise<number> {
  const [row]: [{ count: number }?] = await sql`
    select count(*)::int as count from user_contact_confirmation where user_id = ${userId} and created_at >= ${since}`;
  return row?.count ?? 0;
}

/** The row, locked until the transaction ends, so one link confirms at most once. */
export async function findConfirmationForUpdate(sql: Queryable, id: string): Promise<Confirmation | undefined> {
  const [row]: [Confirmation?] = await sql`select ${sql.unsafe(COLUMNS)} from user_contact_confirmation where id = ${id} for update`;
  return row;
}

export async function markConfirmationUsed(sql: Queryable, id: string): Promise<void> {
  await sql`update user_contact_confirmation set used_at = now() where id = ${id}`;
}

/** The confirmations the email channel is about to send links for, by id. */
export async function loadConfirmations(sql: Queryable, ids: readonly string[]): Promise<Map<string, Confirmation>> {
  if (ids.length === 0) return new Map();
  const rows: Confirmation[] = await sql`
    select ${sql.unsafe(COLUMNS)} from user_contact_confirmation where id = any(${[...ids]}::uuid[])`;
  return new Map(rows.map((row) => [row.id, row]));
}
