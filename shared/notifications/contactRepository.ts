import type { Queryable } from '../db/client';
import type { Language } from './contactSchemas';

/** Where and in which language a user gets email. */
export interface Contact {
  /** The confirmed address in use; null: none yet. */
  email: string | null;
  language: Language;
  /** An address waiting for its owner to open the confirmation link; not used for delivery. */
  pendingEmail: string | null;
}

const NO_CONTACT: Contact = { email: null, language: 'de', pendingEmail: null };

/** Contacts of the given users; a user without a row has no address and reads German. */
export async function loadContacts(sql: Queryable, userIds: readonly string[]): Promise<Map<string, Contact>> {
  const rows: ({ userId: string } & Contact)[] = await sql`
    select user_id as "userId", email, language, pending_email as "pendingEmail"
    from user_contact where user_id = any(${[...userIds]}::text[])`;
  return new Map(rows.map(({ userId, ...contact }) => [userId, contact]));
}

/** The contact of one user; no address and German when none is stored. */
export async function loadContact(sql: Queryable, userId: string): Promise<Contact> {
  return (await loadContacts(sql, [userId])).get(userId) ?? { ...NO_CONTACT };
}

/**
 * As loadContact, holding the user's row until the transaction ends (made when missing), so two
 * changes of one member's address apply one after the other.
 */
export async function loadContactForUpdate(sql: Queryable, userId: string): Promise<Contact> {
  await sql`insert into user_contact (user_id) values (${userId}) on conflict (user_id) do nothing`;
  const [row]: [Contact?] = await sql`
    select email, language, pending_email as "pendingEmail" from user_contact where user_id = ${userId} for update`;
  return row ?? { ...NO_CONTACT };
}

/**
 * Stores an address that needs no confirmation link (the sign-in's verified address, one the
 * member confirmed, or one an operator or a test sets) as the address in use, and the language.
 * A pending address other than it stays pending.
 */
export async function saveContact(sql: Queryable, userId: string, contact: Pick<Contact, 'email' | 'language'>): Promise<void> {
  await sql`
    insert into user_contact (user_id, email, language, email_confirmed_at)
    values (${userId}, ${contact.email}, ${contact.language}, case when ${contact.email}::text is null then null else now() end)
    on conflict (user_id) do update set
      email_confirmed_at = case
        when excluded.email is null then null
        when excluded.email is not distinct from user_contact.email then user_contact.email_confirmed_at
        else now() end,
      email = excluded.email,
      pending_email = case when user_contact.pending_email = excluded.email then null else user_contact.pending_email end,
      language = excluded.language,
      updated_at = now()`;
}

/** Sets the address waiting for confirmation (null: none) and the language; the address in use stays. */
export async function savePendingEmail(sql: Queryable, userId: string, pendingEmail: string | null, language: Language): Promise<void> {
  await sql`
    update user_contact set pending_email = ${pendingEmail}, language = ${language}, updated_at = now() where user_id = ${userId}`;
}

/** Sets only the user's language (the profile's language is this one stored value); the address stays. */
export async function saveLanguage(sql: Queryable, userId: string, language: Language): Promise<void> {
  await sql`
    insert into user_contact (user_id, email, language) values (${userId}, null, ${language})
    on conflict (user_id) do update set language = excluded.language, updated_at = now()`;
}
