import type { Named } from './contracts';

/**
 * How a person is shown: their display name, or a neutral word while they have no profile (never
 * their user id); an initials avatar on a colour chosen from the id, so the same person keeps the
 * same colour on every screen. Pure, so unit tests import it.
 */
export const AVATAR_COLOURS = ['#0b4f6c', '#6a2c91', '#1e6b35', '#9c3412', '#4a4f8c', '#7a4a00'] as const;

export function avatarColour(userId: string): string {
  let hash = 0;
  for (const char of userId) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return AVATAR_COLOURS[hash % AVATAR_COLOURS.length] as string;
}

/** The name, or `fallback` (the reader's word for "a member") when the person has none yet. */
export function nameOf(person: Named, fallback: string): string {
  return person.displayName?.trim() || fallback;
}

/** The avatar's letters: the service's initials, else a neutral mark. */
export function initialsOf(person: Named): string {
  return person.initials?.trim() || '?';
}
