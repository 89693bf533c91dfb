import type { Queryable } from '../db/client';
import type { Language } from './contactSchemas';

/** Where and in which language a user gets email. */
export interface Contact {
  email: string | null;
  language: Language;
}

/** Contacts of the given users; a user without a row has no address and reads German. */
export async function loadContacts(sql: Queryable, userIds: readonly string[]): Promise<Map<string, Contact>> {
  const rows: { userId: string; email: string | null; language: Language }[] = await sql`
    select user_id as "userId", email, language from user_contact where user_id = any(${[...userIds]}::text[])`;
  return new Map(rows.map((row) => [row.userId, { email: row.email, language: row.language }]));
}

export async function saveContact(sql: Queryable, userId: string, contact: Contact): Promise<void> {
  await sql`
    insert into user_contact (user_id, email, language) values (${userId}, ${contact.email}, ${contact.language})
    on conflict (user_id) do update set email = excluded.email, language = excluded.language, updated_at = now()`;
}

/** The contact of one user; no address and German when none is stored. */
export async function loadContact(sql: Queryable, userId: string): Promise<Contact> {
  return (await loadContacts(sql, [userId])).get(userId) ?? { email: null, language: 'de' };
}

/** Sets only the user's language (the profile's language is this one stored value); the address stays. */
export async function saveLanguage(sql: Queryable, userId: string, language: Language): Promise<void> {
  await sql`
    insert into user_contact (user_id, email, language) values (${userId}, null, ${language})
    on conflict (user_id) do update set language = excluded.language, updated_at = now()`;
}
