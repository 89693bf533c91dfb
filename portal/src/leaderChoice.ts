/**
 * The rules of the leader picker, without the DOM (unit-tested in
 * tests/portal/leaderChoice.unit.test.ts): what may be looked up, and that only a person the
 * lookup found can be appointed, never typed text (a typo once made `demo-memebr-1` a leader).
 */

/** GET /api/admin/people takes 2..50 characters. */
export const QUERY_MIN = 2;
export const QUERY_MAX = 50;
/** People listed per lookup (the route's limit is 1..20). */
export const PEOPLE_LISTED = 8;

export interface Person {
  userId: string;
  /** Null while the person has no name: the id alone then tells who it is. */
  displayName: string | null;
  initials: string | null;
  lastSeenAt: string;
}

export type LookupQuery = { ok: true; query: string } | { ok: false; reason: 'tooShort' };

/** The text to look up, trimmed; too short to ask for (the route refuses it too). */
export function lookupQuery(typed: string): LookupQuery {
  const query = typed.trim().slice(0, QUERY_MAX);
  return query.length >= QUERY_MIN ? { ok: true, query } : { ok: false, reason: 'tooShort' };
}

export function peoplePath(query: string): string {
  return `/api/admin/people?${new URLSearchParams({ query, limit: String(PEOPLE_LISTED) }).toString()}`;
}

export type Appointment = { ok: true; person: Person } | { ok: false; reason: 'notPicked' | 'alreadyLeader' };

/**
 * Whom "Make leader" appoints: the person picked from the lookup's list, and only while the
 * search box still shows that pick (typing after picking drops it). A leader already is not
 * appointed again (an undo would then remove an appointment nobody made here).
 */
export function appointment(picked: Person | null, typed: string, leaders: ReadonlySet<string>): Appointment {
  if (!picked || typed.trim() !== pickLabel(picked)) return { ok: false, reason: 'notPicked' };
  if (leaders.has(picked.userId)) return { ok: false, reason: 'alreadyLeader' };
  return { ok: true, person: picked };
}

/** What the search box shows after a pick: the name, and the id that tells two people of one name apart. */
export function pickLabel(person: Person): string {
  return person.displayName === null ? person.userId : `${person.displayName} (${person.userId})`;
}

export function leaderPath(clubId: string, userId: string): string {
  return `/api/clubs/${encodeURIComponent(clubId)}/leaders/${encodeURIComponent(userId)}`;
}
