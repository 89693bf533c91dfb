import { initialsOf } from './initials';

/** `displayName` and `initials` of a person for a response entry: both null without a profile. */
export function personName(displayName: string | null | undefined): { displayName: string | null; initials: string | null } {
  return displayName ? { displayName, initials: initialsOf(displayName) } : { displayName: null, initials: null };
}
