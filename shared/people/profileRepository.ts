import type { Queryable } from '../db/client';

/** A person's stored profile (`person_profile`). */
export interface StoredProfile {
  /** Null while neither a sign-in nor the person gave a name: nothing is made up in its place. */
  displayName: string | null;
  nameFromSignIn: boolean;
}

/**
 * A sign-in: makes the profile on first use (the sign-in's name, else none), refreshes
 * `last_seen_at`, and takes a new sign-in name while the person has not chosen one. A sign-in
 * without a usable name never replaces one the profile holds.
 */
export async function recordSignIn(sql: Queryable, userId: string, signInName: string | undefined): Promise<void> {
  await sql`
    insert into person_profile (user_id, display_name) values (${userId}, ${signInName ?? null}::text)
    on conflict (user_id) do update set
      display_name = case
        when person_profile.name_from_sign_in and ${signInName ?? null}::text is not null then ${signInName ?? null}::text
        else person_profile.display_name end,
      last_seen_at = now()`;
}

export async function findProfile(sql: Queryable, userId: string): Promise<StoredProfile | undefined> {
  const [row]: [StoredProfile?] = await sql`
    select display_name as "displayName", name_from_sign_in as "nameFromSignIn" from person_profile where user_id = ${userId}`;
  return row;
}

/** The person's own choice of name: from now on sign-ins no longer change it. */
export async function chooseDisplayName(sql: Queryable, userId: string, displayName: string): Promise<void> {
  await sql`
    insert into person_profile (user_id, display_name, name_from_sign_in) values (${userId}, ${displayName}, false)
    on conflict (user_id) do update set display_name = excluded.display_name, name_from_sign_in = false`;
}

/** The display names of the given people who have a profile with a name, by user id. */
export async function displayNamesOf(sql: Queryable, userIds: readonly string[]): Promise<Map<string, string>> {
  if (userIds.length === 0) return new Map();
  const rows: { userId: string; displayName: string }[] = await sql`
    select user_id as "userId", display_name as "displayName" from person_profile
    where user_id = any(${[...new Set(userIds)]}::text[]) and display_name is not null`;
  return new Map(rows.map((row) => [row.userId, row.displayName]));
}

export interface PersonFound {
  userId: string;
  displayName: string | null;
  lastSeenAt: Date;
}

/**
 * People whose name or user id contains `text` (case-insensitive): those starting with it first,
 * then the most recently seen. `text` is matched literally (`%` and `_` are no wildcards). A person
 * without a name is found by their user id.
 */
export async function findPeople(sql: Queryable, text: string, limit: number): Promise<PersonFound[]> {
  const needle = text.toLowerCase();
  const contained = `%${needle.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
  return sql<PersonFound[]>`
    select user_id as "userId", display_name as "displayName", last_seen_at as "lastSeenAt"
    from person_profile
    where lower(display_name) like ${contained} or lower(user_id) like ${contained}
    order by (coalesce(starts_with(lower(display_name), ${needle}), false) or starts_with(lower(user_id), ${needle})) desc,
      last_seen_at desc, user_id
    limit ${limit}`;
}
