import type { Sql } from '../db/client';
import { loadContact, saveLanguage } from '../notifications/contactRepository';
import { personName } from './names';
import { chooseDisplayName, findPeople, findProfile, recordSignIn } from './profileRepository';
import type { People, Profile, ProfileBody } from './schemas';

/** The caller as the profile routes know them: their id and the name their sign-in suggests. */
export interface ProfileOwner {
  userId: string;
  signInName: string | undefined;
}

/**
 * The caller's profile, made from their sign-in when they have none yet (the first signed-in
 * request normally made it already; a host without the sign-in recorder still answers).
 */
export async function profileOf(sql: Sql, owner: ProfileOwner): Promise<Profile> {
  let stored = await findProfile(sql, owner.userId);
  if (!stored) {
    await recordSignIn(sql, owner.userId, owner.signInName);
    stored = await findProfile(sql, owner.userId);
  }
  if (!stored) throw new Error('The profile just written was not found');
  const { language } = await loadContact(sql, owner.userId);
  return { ...personName(stored.displayName), language, nameFromSignIn: stored.nameFromSignIn };
}

/** Changes the caller's name and/or language in one transaction and answers the profile. */
export async function updateProfile(sql: Sql, owner: ProfileOwner, body: ProfileBody): Promise<Profile> {
  await sql.begin(async (tx) => {
    if (body.displayName !== undefined) await chooseDisplayName(tx, owner.userId, body.displayName);
    if (body.language !== undefined) await saveLanguage(tx, owner.userId, body.language);
  });
  return profileOf(sql, owner);
}

/** The operators' lookup of people who have signed in, by name or user id. */
export async function lookUpPeople(sql: Sql, query: string, limit: number): Promise<People> {
  const found = await findPeople(sql, query, limit);
  return {
    items: found.map((person) => ({
      userId: person.userId,
      ...personName(person.displayName),
      lastSeenAt: person.lastSeenAt.toISOString(),
    })),
  };
}
