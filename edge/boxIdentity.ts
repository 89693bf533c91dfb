import os from 'node:os';
import type postgres from 'postgres';
import type { BoxRoute } from './boxRoute';

export const BOX_IDENTITY_PATH = '/api/box/identity';

/** Which box this is and which club it publishes for, as the box UI's header shows it. */
export interface BoxIdentity {
  /** The box's host name: what the volunteer knows the machine by. */
  box: string;
  /** The club number the connector publishes for (SVC_CLUB_ID); null when none is set. */
  clubNumber: string | null;
  /** That club's name in the club software's mirror; null when the mirror has no such club or cannot be read. */
  clubName: string | null;
}

/**
 * GET /api/box/identity (behind the box access like every status route): someone looking at the
 * UI of one of several boxes sees whose it is before they record a consent on it.
 */
export function boxIdentityRoutes(mirror: postgres.Sql, clubNumber: string | undefined): Record<string, BoxRoute> {
  return {
    [BOX_IDENTITY_PATH]: {
      method: 'GET',
      handle: async () => ({ status: 200, body: await readBoxIdentity(mirror, clubNumber) }),
    },
  };
}

async function readBoxIdentity(mirror: postgres.Sql, clubNumber: string | undefined): Promise<BoxIdentity> {
  const identity: BoxIdentity = { box: os.hostname(), clubNumber: clubNumber ?? null, clubName: null };
  if (!clubNumber) return identity;
  try {
    const [row] = await mirror<{ name: string }[]>`select name from club_software_club where vereins_id = ${clubNumber}`;
    return { ...identity, clubName: row?.name ?? null };
  } catch {
    // The mirror is down or has no club table yet: the number alone still says which club.
    return identity;
  }
}
